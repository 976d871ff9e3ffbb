import Agent
import Foundation

extension FuzzTarget {
    /// A capture's description (capture.json, `agentd replay`'s input beside its rtpdump): JSON
    /// read under bounds, then every route checked. What is accepted must make routes and encode
    /// back to an equal description.
    public static let captureDescription = FuzzTarget(name: "capture-description", summary: "CaptureDescription.parse (capture.json)",
                                                      maxInputLength: 16384) { bytes in
        guard let description = try? CaptureDescription.parse(Data(bytes)) else { return }
        for change in description.routeChanges {
            for route in change.routes {
                FuzzCheck.expect((try? route.route()) != nil, "an accepted description holds a route that is none: \(route)")
            }
        }
        guard let encoded = try? JSONEncoder().encode(description) else {
            FuzzCheck.expect(false, "an accepted description does not encode")
            return
        }
        FuzzCheck.expect((try? CaptureDescription.parse(encoded)) == description, "a description reads back differently")
    }
}
