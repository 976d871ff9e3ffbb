import Foundation
import Recorder

extension FuzzTarget {
    /// manifest.json read back to continue a recording (`agentd record --continue`, a worker's
    /// reclaimed job): bytes into ``RecordingManifestReader``, then what a continuation makes of
    /// a manifest it read: its last known time, the part numbers of the files it names, and the
    /// manifest merged with a run of its own, encoded and read back. Nothing traps; a new part
    /// never takes the name of a file the manifest lists (case-insensitively); the merge keeps
    /// every earlier participant and file and adds one `continued` gap.
    public static let recordingManifest = FuzzTarget(
        name: "recording-manifest", summary: "RecordingManifestReader, then a continuation: last known time, part numbers, merge, re-read",
        maxInputLength: 16_384
    ) { bytes in
        let earlier: RecordingManifest
        do throws(ManifestReadError) {
            earlier = try RecordingManifestReader.parse(Array(bytes))
        } catch {
            _ = error.description
            return
        }
        let named = earlier.files.map(\.path) + earlier.participants.flatMap { $0.files.map(\.path) }
        let parts = RecordingPartNumbers(fileNames: named)
        let taken = Set(named.map { $0.lowercased() })
        for stem in earlier.participants.map(\.name).prefix(64) + ["mix", "data"] {
            for (base, ext) in [("webm", "webm"), ("webm", "mkv"), ("wav", "wav"), ("opus", "opus"), ("jsonl", "jsonl")] {
                let next = RecordingSegments.partPath("\(stem).\(ext)", number: parts.first(for: "\(stem).\(base)"))
                FuzzCheck.expect(!taken.contains(next.lowercased()), "a new part takes the listed name \(next)")
            }
        }
        let originMs = min(max(0, earlier.lastKnownMs), 1 << 33) + 1000
        let continuation = RecordingContinuation(earlier: earlier, originMs: originMs, partNumbers: parts)
        FuzzCheck.expect(continuation.earlierEndMs <= originMs, "the gap ends before it starts")

        let merged = continuation.merged(currentRun(after: earlier, originMs: originMs, parts: parts))
        FuzzCheck.expect(merged.participants.count == earlier.participants.count + 1, "\(merged.participants.count) participants")
        FuzzCheck.expect(merged.files.count == earlier.files.count + 1, "\(merged.files.count) room files")
        let continued = { (manifest: RecordingManifest) in
            manifest.gaps.filter { $0.reason == RecordingManifest.ConnectionGap.continuedReason }.count
        }
        FuzzCheck.expect(continued(merged) == continued(earlier) + 1, "not one continued gap more")
        for (before, after) in zip(earlier.participants, merged.participants) {
            FuzzCheck.expect(Array(after.files.prefix(before.files.count)) == before.files, "an earlier file of \(before.name) changed")
        }
        guard let encoded = try? merged.encodedJSON() else { return FuzzCheck.expect(false, "the merged manifest does not encode") }
        guard encoded.count <= RecordingManifestReader.maximumBytes else { return }
        let reread = try? RecordingManifestReader.parse(Array(encoded))
        FuzzCheck.expect(reread?.participants.count == merged.participants.count, "the merged manifest does not read back")
    }

    /// This run as a recorder would build it: the first earlier participant back under their
    /// name and id, a newcomer, and a part of data.jsonl.
    private static func currentRun(after earlier: RecordingManifest, originMs: Int64, parts: RecordingPartNumbers) -> RecordingManifest {
        var current = RecordingManifest(room: earlier.room, server: earlier.server, startedAt: earlier.startedAt, formats: ["webm", "data"])
        if let back = earlier.participants.first {
            current.participants.append(.init(id: back.ids.first ?? back.id, display: back.display, name: back.name, joinedMs: originMs,
                                              files: [.init(path: "\(back.name).partN.webm", format: "webm", startMs: originMs)],
                                              stats: .init(audio: .init(packets: .max, bytes: .max))))
        }
        let ids = Set(earlier.participants.flatMap(\.ids) + earlier.participants.map(\.id))
        var newcomer = "newcomer"
        while ids.contains(newcomer) { newcomer += "+" }
        current.participants.append(.init(id: newcomer, display: newcomer, name: newcomer, joinedMs: originMs))
        current.files = [.init(path: RecordingSegments.partPath("data.jsonl", number: parts.first(for: "data.jsonl")), format: "data", startMs: originMs)]
        current.eventsDropped = .max
        return current
    }
}
