import CAgentShims
import CNice
import Foundation

// The C side of ``ICEAgent``: libnice's callback user data, its receive callback, and the
// teardown that detaches them on the loop.

/// Frees a GSList of NiceCandidate copies.
func freeCandidateList(_ list: UnsafeMutablePointer<GSList>?) {
    var node = list
    while let current = node {
        if let data = current.pointee.data {
            nice_candidate_free(data.assumingMemoryBound(to: NiceCandidate.self))
        }
        node = current.pointee.next
    }
    g_slist_free(list)
}

/// What libnice's callbacks receive as user data. It outlives the ICEAgent until the loop has
/// disconnected every callback, and holds the agent weakly so a callback racing deinit finds nil.
final class ICECallbackTarget: @unchecked Sendable {
    // @unchecked Sendable: `agent` is a weak reference (atomic to load and clear in Swift); it is
    // written once on the loop in ICEAgent.init and read only on the loop by callbacks.
    weak var agent: ICEAgent?

    static func agent(from data: UnsafeMutableRawPointer?) -> ICEAgent? {
        guard let data else { return nil }
        return Unmanaged<ICECallbackTarget>.fromOpaque(data).takeUnretainedValue().agent
    }
}

/// libnice delivers datagrams here, on the loop, from the stream's receive source.
func iceReceiveTrampoline(
    _ agent: OpaquePointer?, _ streamID: guint, _ componentID: guint, _ length: guint,
    _ buffer: UnsafeMutablePointer<gchar>?, _ data: gpointer?
) {
    guard let buffer, let target = ICECallbackTarget.agent(from: data) else { return }
    target.handleDatagram(streamID: streamID, bytes: UnsafeRawBufferPointer(start: buffer, count: Int(length)))
}

/// Detaches every callback and releases libnice's agent, on the loop.
struct NiceAgentTeardown: @unchecked Sendable {
    // @unchecked Sendable: carries C pointers from deinit to the loop; `run` is only called on the
    // loop (directly when deinit or close already runs there, else through `loop.execute`), and
    // each teardown is created once per agent, so the pointers are used by one thread only.
    let agent: OpaquePointer
    let streamID: guint
    let context: OpaquePointer
    let signalHandlerIDs: [gulong]
    let callbackTarget: Unmanaged<ICECallbackTarget>

    func run() {
        let object = UnsafeMutableRawPointer(agent)
        nice_agent_attach_recv(agent, streamID, 1, context, nil, nil)
        for id in signalHandlerIDs {
            g_signal_handler_disconnect(object, id)
        }
        nice_agent_remove_stream(agent, streamID)
        nice_agent_close_async(agent, nil, nil)
        g_object_unref(object)
        callbackTarget.release()
    }
}
