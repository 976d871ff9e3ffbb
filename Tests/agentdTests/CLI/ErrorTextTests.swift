import Agent
import AgentdCore
import BotKit
import Foundation
import Recorder
import Testing

@testable import agentd

/// Every error type that can reach a person (a CLI line, a job's `error` in the API, a log or a
/// manifest) renders as a sentence, not as a Swift enum dump like `nothingMatched(allowList: …)`
/// or `CommandFailure(code: …)`: each has a description, and ErrorText uses it.
@Suite struct ErrorTextTests {
    static var samples: [any Error] {
        let fingerprint = try? DTLSFingerprint(algorithm: .sha256, digest: Array(repeating: 0xAB, count: 32))
        let track = TrackOffer(mid: "0", kind: .video, codec: .vp9, payloadType: 98, ssrc: 1)
        var errors: [any Error] = [
            // agentd
            CommandFailure(.usage, "bad", hint: "fix it"), CommandFailure(.failure, "plain"), UsageError.missingRequired(option: "room"),
            UsageError.invalidValue(option: "ttl", value: "1e10", expected: "a number"), APIError(status: 409, message: "taken"),
            BotJobRejection.unavailable, JobRegistry.Rejection.full(limit: 4), JobRegistry.Rejection.shuttingDown,
            JobFailure(description: "room missing"), RecipeError.invalid(path: "$.x", message: "bad"), ServeConfigError.notAnObject,
            BoundedFile.Failure.tooLarge(limit: 1 << 20), CancellationError(),
            // Agent
            ICEAllowListError.empty, ICEAllowListError.invalidAddress("1.2.3"), ICEAllowListError.ipv6NotSupported("::1"),
            ICEAllowListError.invalidInterfaceName("x y"), ICEAllowListError.nothingMatched(allowList: "eth9", available: ["lo", "eth0"]),
            ICEAllowListError.interfaceQueryFailed(errno: 12),
            JanusError.server(code: 403, reason: "Unauthorized"), JanusError.plugin(code: 426, reason: "No such room"),
            JanusError.timeout(request: "join"), JanusError.connectFailed(reason: "refused"),
            JanusError.connectionClosed(code: 1006, reason: ""), JanusError.malformed("no data"), JanusError.gone("session"),
            JanusPublisherError.codecRefused(refused: [track], allowed: nil), JanusPublisherError.connectionFailed("ice"),
            JanusPublisherError.dataChannelUnavailable, JanusPublisherError.notStarted,
            WebSocketError.invalidURL("x"), WebSocketError.connectFailed(reason: "refused"), WebSocketError.closed(code: 1000, reason: "bye"),
            WebSocketError.notConnected, WebSocketError.alreadyUsed,
            PeerConnectionError.badOffer("x"), PeerConnectionError.ice(.gatheringFailed), PeerConnectionError.iceFailed,
            PeerConnectionError.dtls(.missingPeerCertificate), PeerConnectionError.srtp(.replayed),
            PeerConnectionError.sctp(.connectFailed(errno: 111)), PeerConnectionError.dataChannel(.noStreamsLeft),
            PeerConnectionError.notConnected, PeerConnectionError.closed,
            ICEAgentError.creationFailed("x"), ICEAgentError.allowList(.empty), ICEAgentError.invalidLocalAddress("x"),
            ICEAgentError.invalidCredentials("x"), ICEAgentError.invalidCandidate(.missingPrefix), ICEAgentError.unsupportedComponent(2),
            ICEAgentError.unsupportedTransport("tcp"), ICEAgentError.candidateRejected("x"), ICEAgentError.sendFailed(length: 5),
            ICEAgentError.closed,
            DTLSError.noSRTPProfileNegotiated, DTLSError.unsupportedSRTPProfile(id: 9), DTLSError.keyExportFailed("x"),
            DTLSError.handshakeFailed(reason: "x"), DTLSError.protocolError(reason: "x"), DTLSError.certificateFailed(reason: "x"),
            DTLSError.setupFailed(reason: "x"), DTLSError.notConnected, DTLSError.applicationDataTooLarge(maximum: 1, got: 2),
            SRTPError.invalidKeyLength(expected: 16, got: 3), SRTPError.packetTooShort(minimum: 12, got: 3), SRTPError.wrongDirection,
            SRTPError.authenticationFailed, SRTPError.library(status: 1, name: "fail"),
            SCTPError.socketFailed(errno: 1), SCTPError.socketOptionFailed(option: "SCTP_NODELAY", errno: 22), SCTPError.wouldBlock,
            SCTPError.sendFailed(errno: 32), SCTPError.closed,
            SDPError.empty, SDPError.malformedLine(number: 3, line: "x"), SDPError.missingVersion,
            SDPError.badMediaLine(number: 4, line: "m=x"), SDPError.badAttribute(name: "rtpmap", value: "x"),
            ICECandidateError.missingField("port"), ICECandidateError.invalidPort("x"),
            ICECandidateError.unexpectedToken("x", expected: "typ"), ICECandidateError.missingValue(for: "raddr"),
            DataChannelRegistry.Error.unknownStream(3), DataChannelRegistry.Error.encoding(.trailingBytes(count: 2)),
            AnswerBuilder.Error.unusableOffer("no media"),
            OpusPacket.Error.empty, OpusPacket.Error.missingFrameCount, OpusPacket.Error.tooLong(samples: 9999),
            DTLSFingerprint.ParseError.empty, DTLSFingerprint.ParseError.unsupportedAlgorithm("md5"),
            DTLSFingerprint.ParseError.wrongDigestLength(algorithm: .sha256, expected: 32, got: 3),
            DCEPError.truncated(needed: 12, got: 3), DCEPError.unexpectedMessageType(9), DCEPError.invalidUTF8(field: "label"),
            RTPError.truncated(needed: 12, got: 3), RTPError.badVersion(1), RTPError.badExtensionElement(offset: 3),
            RTCPError.lengthPastEnd(declared: 40, available: 8), RTCPError.malformed(packetType: 200, reason: "x"),
            SendStreamError.invalidMIDExtension(id: 15, length: 20), SendStreamError.maxPacketSizeTooSmall(10),
            SendStreamError.invalidClockRate(0),
            ReceiveStreamError.malformed(.badVersion(1)), ReceiveStreamError.unexpectedSSRC(5),
            ReceiveStreamError.sequenceJump(distance: 40_000), ReceiveStreamError.malformedPayload(.vp8(.truncatedDescriptor)),
            DepacketizerError.emptyPayload, DepacketizerError.vp9(.tooManyReferences), DepacketizerError.rangeOutsidePayload,
            VP8Error.emptyPayload, VP9Error.truncatedDescriptor, I420FrameError.invalidDimensions(width: 3, height: 0),
            I420FrameError.planeTooSmall(plane: "Y", needed: 10, got: 2), MediaFileError.notRegularFile(path: "/p", kind: "a FIFO (named pipe)"),
            OggOpusReaderError.badPacket(index: 3, reason: .missingFrameCount), OggOpusReaderError.headersTooLarge(path: "/x", limit: 16 << 20),
            AgentError.mediaFailed("ICE failed"),
            // BotKit and Recorder (errors that carry the ones above)
            VideoTrackError.invalidFrame(.strideTooSmall(plane: "U", stride: 1, width: 2)), BotError.conflictingSources("x"),
            RecordingDirectoryError.holdsRecording(path: "/r", file: "manifest.json"), RecordingDirectoryError.alreadyExists(path: "/r"),
        ]
        if let fingerprint { errors.append(DTLSError.fingerprintMismatch(expected: fingerprint, actual: fingerprint)) }
        return errors
    }

    /// The shape of a dump: a name glued to a parenthesis that opens a labelled field, a quoted
    /// string, a number or a type (`nothingMatched(allowList:`, `malformed("`, `badVersion(1`,
    /// `CommandFailure(code:`, `ice(Agent.`); "job(s)" is English.
    static func looksDumped(_ text: String) -> Bool {
        text.contains(/[A-Za-z_]\((?:[a-z][A-Za-z0-9]*: |"|[0-9]|[A-Z])/)
    }

    @Test func everyErrorRendersAsASentence() {
        for error in Self.samples {
            let text = ErrorText.describe(error)
            #expect(!text.isEmpty, "\(type(of: error))")
            #expect(!Self.looksDumped(text), "\(type(of: error)) renders as \(text)")
            #expect(!Self.looksDumped("\(error)") || error is CancellationError,
                    "\(type(of: error)) interpolates as \("\(error)")")
        }
    }

    @Test func knownRenderings() {
        #expect(ErrorText.describe(ICEAllowListError.nothingMatched(allowList: "eth9", available: ["eth0"]))
            == "nothing in 'eth9' matches an interface that is up (up: eth0)")
        #expect(ErrorText.describe(CommandFailure(.usage, "bad", hint: "fix it")) == "bad (fix it)")
        #expect(ErrorText.describe(CancellationError()) == "cancelled before it finished")
        #expect(!Self.looksDumped(ErrorText.describe(CocoaError(.fileNoSuchFile))))
        let decoding: Error
        do {
            _ = try JSONDecoder().decode(JSONValue.self, from: Data("{nope".utf8))
            return
        } catch {
            decoding = error
        }
        #expect(!Self.looksDumped(ErrorText.describe(decoding)), "\(ErrorText.describe(decoding))")
    }
}
