import Agent

extension FuzzTarget {
    /// The jitter buffer fed a sequence of packets: the input is records of
    /// `[codec/time byte, sequence step (2), timestamp step, marker, length, payload…]`, with a
    /// small capacity so reordering, loss, duplicates, jumps and overflow all happen. Whatever
    /// comes in, frames and losses come out in sequence order without overlapping, and no more
    /// than `capacity` packets are held.
    public static let jitterBuffer = FuzzTarget(name: "jitter-buffer", summary: "JitterBuffer insert/drain/flush on packet sequences (Opus, VP8, VP9, H.264)", maxInputLength: 4096) { bytes in
        var input = FuzzInput(bytes)
        let depacketizers: [any Depacketizer] = [
            OpusDepacketizer(), VP8DepacketizerAdapter(), VP9DepacketizerAdapter(), H264DepacketizerAdapter(),
        ]
        let configuration = JitterBuffer.Configuration(capacity: 2 + Int(input.byte() % 32), maxWait: .milliseconds(100), historySize: 64)
        var buffer = JitterBuffer(depacketizer: depacketizers[Int(input.byte()) % depacketizers.count], configuration: configuration)
        var sequence: Int64 = 1 << 20
        var timestamp: Int64 = 0
        var now = MediaInstant(monotonicNanoseconds: 0, wallNanoseconds: 0)
        var lastEmitted: Int64 = .min
        func check(_ outputs: [JitterBuffer.Output]) {
            for output in outputs {
                let range: ClosedRange<Int64>
                switch output {
                case .frame(let frame):
                    FuzzCheck.expect(frame.firstSequence <= frame.lastSequence, "frame \(frame.firstSequence)...\(frame.lastSequence)")
                    range = frame.firstSequence...frame.lastSequence
                case .loss(let loss):
                    FuzzCheck.expect(loss.firstSequence <= loss.lastSequence, "loss \(loss)")
                    FuzzCheck.expect(loss.missingPackets + loss.discardedPackets == Int(loss.lastSequence - loss.firstSequence + 1), "loss counts \(loss)")
                    range = loss.firstSequence...loss.lastSequence
                }
                FuzzCheck.expect(range.lowerBound > lastEmitted, "\(output) after \(lastEmitted)")
                lastEmitted = range.upperBound
            }
            FuzzCheck.expect(buffer.count <= configuration.capacity, "\(buffer.count) packets held, capacity \(configuration.capacity)")
        }
        while !input.isEmpty {
            let control = input.byte()
            // Steps mostly small, sometimes far (a jump past the capacity, or back).
            let step = Int64(Int16(bitPattern: input.uint16()))
            sequence += control & 0x80 != 0 ? step : step % 8
            timestamp += Int64(input.byte()) * 90
            now = now + .milliseconds(Int64(control & 0x0F) * 10)
            let marker = control & 0x10 != 0
            let payload = input.take(Int(input.byte() % 64))
            _ = payload.withUnsafeBytes {
                buffer.insert(sequence: sequence, timestamp: timestamp, marker: marker, payload: $0, arrival: now, requested: control & 0x20 != 0)
            }
            if control & 0x40 != 0 { check(buffer.drain(now: now)) }
            if control & 0x70 == 0x70 {
                check(buffer.flush())
                lastEmitted = .min  // a flush starts a new sequence space
            }
        }
        check(buffer.drain(now: now + .seconds(1)))
        check(buffer.flush())
        FuzzCheck.expect(buffer.count == 0, "\(buffer.count) packets left after a flush")
    }

    /// The frame a fresh jitter buffer makes of one frame's `payloads` (in order, one timestamp,
    /// the marker on the last): all must be accepted, and exactly one frame must come out. Nil
    /// when they are more than the buffer holds (they are still inserted, to drive its overflow).
    static func assembledFrame(of payloads: [[UInt8]], depacketizer: any Depacketizer) -> MediaFrame? {
        var buffer = JitterBuffer(depacketizer: depacketizer)
        let start = MediaInstant(monotonicNanoseconds: 0, wallNanoseconds: 0)
        for (index, payload) in payloads.enumerated() {
            let result = payload.withUnsafeBytes {
                buffer.insert(sequence: Int64(index), timestamp: 90_000, marker: index == payloads.count - 1, payload: $0, arrival: start)
            }
            FuzzCheck.expect(result == .accepted, "packet \(index) of \(payloads.count): \(result)")
        }
        let outputs = buffer.drain(now: start)
        guard payloads.count <= buffer.configuration.capacity else { return nil }
        FuzzCheck.expect(outputs.count == 1, "\(payloads.count) packets of one frame gave \(outputs)")
        guard case .frame(let frame) = outputs.first else {
            FuzzCheck.expect(false, "\(payloads.count) packets of one frame gave \(outputs)")
            return nil
        }
        return frame
    }

    /// A whole receive stream (RTP parse, sequence validation and unwrapping, statistics, NACK,
    /// keyframe requests, jitter buffer, RTCP out) fed records of
    /// `[kind/time byte, length (2), packet…]`: RTP packets, or RTCP when the kind says so. The
    /// RTCP it writes must parse.
    public static let receiveStream = FuzzTarget(name: "receive-stream", summary: "ReceiveStream.receive/receiveRTCP/tick over packet sequences", maxInputLength: 8192) { bytes in
        var input = FuzzInput(bytes)
        let video = input.bool()
        let configuration = ReceiveStream.Configuration(
            kind: video ? .video : .audio, clockRate: video ? 90_000 : 48_000, localSSRC: 1,
            remoteSSRC: input.bool() ? 0x1234_5678 : nil, jitterBuffer: .init(capacity: 64, maxWait: .milliseconds(200), historySize: 128))
        var stream = ReceiveStream(configuration: configuration, depacketizer: video ? VP8DepacketizerAdapter() : OpusDepacketizer())
        var now = MediaInstant(monotonicNanoseconds: 1_000_000_000, wallNanoseconds: 1_700_000_000_000_000_000)
        while !input.isEmpty {
            let control = input.byte()
            now = now + .milliseconds(Int64(control & 0x3F))
            let packet = input.take(Int(input.uint16() % 1500))
            if control & 0x80 != 0, let rtcp = try? RTCPPacket.parseCompound(packet) {
                stream.receiveRTCP(rtcp, arrival: now)
            } else {
                _ = try? stream.receive(packet, arrival: now)
            }
            if control & 0x40 != 0, let rtcp = stream.tick(now: now).rtcp {
                FuzzCheck.expect((try? RTCPPacket.parseCompound(rtcp)) != nil, "the stream wrote RTCP that does not parse: \(rtcp)")
            }
        }
        _ = stream.tick(now: now + .seconds(5))
    }
}
