import Agent
import AgentdCore
import Foundation
import Testing

@testable import agentd

/// RoomJoinPatch gives the settings RecipeOverrides gives, for every input its callers make, so
/// RecipeOverrides can become a RoomJoinPatch plus its duration (plan issue 12, slice S8).
@Suite struct RoomJoinPatchParityTests {
    /// A recipe with every room setting, and the join and credentials it stands for.
    static func base(creating: Bool, secrets: Bool) throws -> (Recipe, RoomJoin, RoomCredentials) {
        var recipe = try RecipeParser.parse(
            Data(#"{"name": "t", "server": "ws://a/", "room": "r1", "display": "x", "tracks": {"audio": {"source": "tone"}}}"#.utf8),
            baseDirectory: URL(fileURLWithPath: "/srv/recipes"))
        recipe.create = creating
        recipe.token = secrets ? "t0" : nil
        recipe.pin = secrets ? "p0" : nil
        let join = RoomJoin(endpoint: .janus(server: "ws://a/", room: "r1"), display: "x", role: .host, create: creating)
        return (recipe, join, RoomCredentials(token: recipe.token, pin: recipe.pin))
    }

    /// `create` takes nil and true only: those are what RecipeOverrides' callers pass (`agentd
    /// bot --create` gives true or nil; the daemon's bot job none). RecipeOverrides.applied would
    /// also take a false and clear the recipe's own `create`; RoomJoinPatch keeps it, as
    /// RecipeOverrides' own documentation says ("Only `true` overrides").
    @Test("every combination of set and unset fields gives the same settings as RecipeOverrides")
    func parity() throws {
        var compared = 0
        for creating in [false, true] {
            for secrets in [false, true] {
                let (recipe, join, credentials) = try Self.base(creating: creating, secrets: secrets)
                for mask in 0..<64 {
                    func value<T>(_ bit: Int, _ set: T) -> T? { mask & (1 << bit) != 0 ? set : nil }
                    let (server, room, token, pin, create, display) = (
                        value(0, "ws://b/"), value(1, "r2"), value(2, "t1"), value(3, "p1"), value(4, true), value(5, "y")
                    )
                    let overridden = RecipeOverrides(
                        server: server, room: room, token: token, pin: pin, create: create, display: display
                    ).applied(to: recipe)
                    let patch = RoomJoinPatch(server: server, room: room, token: token, pin: pin, create: create, display: display)
                    let patched = patch.applied(to: join)
                    let patchedCredentials = patch.applied(to: credentials)
                    #expect(patched.server == overridden.server, "mask \(mask)")
                    #expect(patched.room == overridden.room, "mask \(mask)")
                    #expect(patched.display == overridden.display, "mask \(mask)")
                    #expect(patched.create == overridden.create, "mask \(mask)")
                    #expect(patchedCredentials.token == overridden.token, "mask \(mask)")
                    #expect(patchedCredentials.pin == overridden.pin, "mask \(mask)")
                    compared += 1
                }
            }
        }
        #expect(compared == 256)
    }
}
