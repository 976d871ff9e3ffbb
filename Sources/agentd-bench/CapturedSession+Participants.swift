import Agent

extension CapturedSession {
    /// The capture as `count` participants who each sent the same packets: clone k's SSRCs are
    /// the originals plus k (in the RTP headers, the sender reports and the routes), its mids
    /// and participant id carry k, and its records interleave with the others' by offset. For
    /// measuring the cost of each added participant in one process.
    func participants(_ count: Int) -> CapturedSession {
        guard count > 1 else { return self }
        var description = self.description
        description.routeChanges = description.routeChanges.map { change in
            var change = change
            change.routes = (0..<count).flatMap { clone in change.routes.map { Self.route($0, clone: clone) } }
            return change
        }
        description.participants = (0..<count).flatMap { clone in
            self.description.participants.map { CaptureDescription.Participant(id: Self.id($0.id, clone: clone), display: "\($0.display)-\(clone)") }
        }
        var records: [RTPDumpRecord] = []
        records.reserveCapacity(self.records.count * count)
        for record in self.records {
            for clone in 0..<count {
                var bytes = record.bytes
                // RTP: the SSRC at 8; a sender report: its SSRC at 4.
                let offset = record.isRTCP ? 4 : 8
                if bytes.count >= offset + 4 {
                    let ssrc = bytes[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } &+ UInt32(clone)
                    for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: ssrc >> (24 - 8 * UInt32(index))) }
                }
                records.append(RTPDumpRecord(offsetMilliseconds: record.offsetMilliseconds, isRTCP: record.isRTCP, bytes: bytes))
            }
        }
        return CapturedSession(description: description, records: records)
    }

    private static func id(_ id: String, clone: Int) -> String { clone == 0 ? id : "\(id)-\(clone)" }

    private static func route(_ route: CapturedRoute, clone: Int) -> CapturedRoute {
        var route = route
        route.mid = clone == 0 ? route.mid : "\(route.mid)-\(clone)"
        route.participantID = id(route.participantID, clone: clone)
        route.ssrcs = route.ssrcs.map { $0 &+ UInt32(clone) }
        // Packets are routed by SSRC: the MID extension would name the original's section.
        route.midExtensionID = nil
        return route
    }
}
