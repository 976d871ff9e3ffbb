import Agent
import CAllocCounter
import Foundation
import Recorder

/// `agentd-bench replay`: ns of CPU and heap allocations per packet through the whole receive
/// path, beside the floor (SRTP unprotect and one buffered write) measured in the same run.
struct ReplayBenchmark {
    let options: ReplayOptions

    struct Figure {
        var cpuSeconds = 0.0
        var allocations: UInt64 = 0
        var packets = 0
        var nsPerPacket: Double { packets > 0 ? cpuSeconds * 1e9 / Double(packets) : 0 }
        var allocationsPerPacket: Double { packets > 0 ? Double(allocations) / Double(packets) : 0 }
    }

    func run() async throws(BenchError) {
        let session: CapturedSession
        do {
            session = try CapturedSession.load(directory: options.capture)
        } catch {
            throw BenchError("\(options.capture): \(error)")
        }
        let key = (0..<16).map { _ in UInt8.random(in: 0...255) }
        let salt = (0..<14).map { _ in UInt8.random(in: 0...255) }
        let protected = try Self.protect(session, key: key, salt: salt)
        let rtp = session.records.filter { !$0.isRTCP }.count
        Console.line(MachineInfo.current().line)
        Console.line("capture: \(options.capture): \(session.records.count) packets (\(rtp) RTP, \(session.records.count - rtp) sender reports) "
            + "over \(session.durationMilliseconds) ms, replayed \(options.repetitions) times at full speed, SRTP AES-128-CM/HMAC-SHA1-80")
        Console.line("figure: ns of CPU (every thread) and heap allocations per packet, repetitions 2..\(options.repetitions) (lower is better)")
        Console.line()

        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("agentd-bench-replay-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)

        let floor = try await measure { repetition throws(BenchError) in try Self.floor(protected, key: key, salt: salt, path: "\(scratch)/floor-\(repetition).bin") }
        let decode = try await measure { _ throws(BenchError) in try Self.opusDecode(session) }
        var rows = [["path", "ns/packet", "× floor", "allocs/packet", ""]]
        rows.append(Self.row("floor", floor, floor, "libsrtp unprotect + one buffered write(2) per packet"))
        for formats in ["webm", "webm,wav"] {
            let figure = try await measure { repetition throws(BenchError) in
                try await Self.receivePath(protected, key: key, salt: salt, formats: formats, path: "\(scratch)/\(formats)-\(repetition)")
            }
            rows.append(Self.row("receive → \(formats)", figure, floor, "unprotect, route, jitter buffer, depacketize, RoomRecorder"))
        }
        rows.append(Self.row("Opus decode alone", decode, floor, "libopus, per audio packet of the capture (the WAV's share)"))
        for line in TextTable.lines(rows) { Console.line(line) }
        try await participants(session, key: key, salt: salt, scratch: scratch)
    }

    /// CPU % of one core per recorded participant in one process: the capture as N participants
    /// (N = options.participants), each media second of each costing what the table shows; the
    /// marginal figure is the added CPU per added participant.
    func participants(_ session: CapturedSession, key: [UInt8], salt: [UInt8], scratch: String) async throws(BenchError) {
        let mediaSeconds = Double(session.durationMilliseconds) / 1000
        Console.line()
        Console.line("one RoomRecorder, the capture as N participants in one process (SSRCs and ids made distinct), full speed; "
            + "figure: CPU % of one core per media second (lower is better)")
        var rows = [["formats", "N", "CPU %", "per participant", "marginal per added participant"]]
        for formats in ["webm", "webm,wav"] {
            var first: (count: Int, percent: Double)?
            for count in options.participantCounts {
                let many = try Self.protect(session.participants(count), key: key, salt: salt)
                let figure = try await measure { repetition throws(BenchError) in
                    try await Self.receivePath(many, key: key, salt: salt, formats: formats, path: "\(scratch)/n\(count)-\(formats)-\(repetition)")
                }
                let runs = Double(options.repetitions - 1)
                let percent = figure.cpuSeconds / runs / mediaSeconds * 100
                let marginal = first.map { (percent - $0.percent) / Double(count - $0.count) }
                if first == nil { first = (count, percent) }
                rows.append([formats, "\(count)", String(format: "%.2f", percent), String(format: "%.3f", percent / Double(count)),
                             marginal.map { String(format: "%.3f", $0) } ?? "-"])
            }
        }
        for line in TextTable.lines(rows) { Console.line(line) }
    }

    static func row(_ name: String, _ figure: Figure, _ floor: Figure, _ note: String) -> [String] {
        [name, String(format: "%.0f", figure.nsPerPacket), String(format: "%.1f", figure.nsPerPacket / max(1, floor.nsPerPacket)),
         String(format: "%.2f", figure.allocationsPerPacket), note]
    }

    /// Runs `body` once to warm up, then `repetitions - 1` times measured.
    func measure(_ body: (Int) async throws(BenchError) -> Int) async throws(BenchError) -> Figure {
        _ = try await body(0)
        var figure = Figure()
        for repetition in 1..<options.repetitions {
            let (cpu, allocations) = (Self.cpuSeconds(), agent_alloc_count())
            figure.packets += try await body(repetition)
            figure.cpuSeconds += Self.cpuSeconds() - cpu
            figure.allocations += agent_alloc_count() - allocations
        }
        return figure
    }

    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// The session with every record SRTP-protected by a fresh outbound context.
    static func protect(_ session: CapturedSession, key: [UInt8], salt: [UInt8]) throws(BenchError) -> CapturedSession {
        var protected = session
        do {
            let outbound = try SRTPContext(profile: .aes128CmHmacSha1_80, direction: .outbound, masterKey: key, masterSalt: salt)
            for index in protected.records.indices {
                var bytes = protected.records[index].bytes
                if protected.records[index].isRTCP { try outbound.protectRTCP(&bytes) } else { try outbound.protectRTP(&bytes) }
                protected.records[index] = RTPDumpRecord(offsetMilliseconds: protected.records[index].offsetMilliseconds,
                                                         isRTCP: protected.records[index].isRTCP, bytes: bytes)
            }
        } catch {
            throw BenchError("SRTP protect: \(error)")
        }
        return protected
    }

    /// The floor: unprotect each packet into one buffer and write it out 64 kB at a time.
    static func floor(_ session: CapturedSession, key: [UInt8], salt: [UInt8], path: String) throws(BenchError) -> Int {
        let inbound: SRTPContext
        do {
            inbound = try SRTPContext(profile: .aes128CmHmacSha1_80, direction: .inbound, masterKey: key, masterSalt: salt)
        } catch {
            throw BenchError("SRTP: \(error)")
        }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw BenchError("cannot create \(path)") }
        defer {
            close(descriptor)
            unlink(path)
        }
        let packet = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 16)
        let output = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer {
            packet.deallocate()
            output.deallocate()
        }
        var used = 0
        var count = 0
        for record in session.records {
            let length = record.bytes.withUnsafeBytes { bytes in
                packet.copyMemory(from: bytes)
                return bytes.count
            }
            let plain: Int
            do {
                plain = record.isRTCP ? try inbound.unprotectRTCP(in: packet, length: length) : try inbound.unprotectRTP(in: packet, length: length)
            } catch {
                continue
            }
            if used + plain > output.count {
                _ = write(descriptor, output.baseAddress, used)
                used = 0
            }
            UnsafeMutableRawBufferPointer(rebasing: output[used..<used + plain]).copyMemory(from: UnsafeRawBufferPointer(rebasing: packet[0..<plain]))
            used += plain
            count += 1
        }
        _ = write(descriptor, output.baseAddress, used)
        return count
    }

    /// The whole receive path into a RoomRecorder writing `formats`.
    static func receivePath(_ session: CapturedSession, key: [UInt8], salt: [UInt8], formats: String, path: String) async throws(BenchError) -> Int {
        do {
            let inbound = try SRTPContext(profile: .aes128CmHmacSha1_80, direction: .inbound, masterKey: key, masterSalt: salt)
            let directory = RecordingDirectory(path: path)
            _ = try directory.prepare(existing: .refuseRecording)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let recorder = try RoomRecorder(directory: directory, room: "bench", server: "replay", formats: try RecordingFormats(parsing: formats),
                                            startedAt: session.startedAt)
            let replay = RTPReplay(session: session, srtp: inbound) { recorder.submit($0) }
            let counters = try await replay.run(pause: { await recorder.drained() })
            _ = await recorder.stop(endedAt: session.startedAt.addingTimeInterval(Double(replay.duration.totalNanoseconds) / 1e9))
            guard counters.unprotectFailures == 0, recorder.eventsDropped == 0 else {
                throw BenchError("replay into \(formats): \(counters.unprotectFailures) unprotect failures, \(recorder.eventsDropped) events dropped")
            }
            return counters.rtpDelivered + counters.senderReports
        } catch let error as BenchError {
            throw error
        } catch {
            throw BenchError("replay into \(formats): \(error)")
        }
    }

    /// libopus decoding each audio packet's payload, as the WAV writer does (packets counted: all
    /// of the capture's, so the row compares with the others per packet).
    static func opusDecode(_ session: CapturedSession) throws(BenchError) -> Int {
        let audio = Set(session.description.routeChanges.flatMap(\.routes).filter { $0.kind == .audio }.flatMap(\.ssrcs))
        let pcm = UnsafeMutableBufferPointer<Int16>.allocate(capacity: 5760 * 2)
        defer { pcm.deallocate() }
        do {
            let decoder = try OpusDecoder(channels: 1)
            for record in session.records where !record.isRTCP {
                let decoded = record.bytes.withUnsafeBytes { raw -> Bool in
                    guard let header = try? RTPHeader.parse(raw), audio.contains(header.ssrc) else { return true }
                    return (try? decoder.decode(UnsafeRawBufferPointer(rebasing: raw[header.payloadRange]), into: pcm)) != nil
                }
                guard decoded else { throw BenchError("opus decode failed on a packet of the capture") }
            }
        } catch let error as BenchError {
            throw error
        } catch {
            throw BenchError("opus: \(error)")
        }
        return session.records.count
    }
}
