// Subscriber page: subscribes (Janus 1.x multistream, `streams: [{feed}]`) to one publisher,
// plays what arrives in <video>/<audio> elements (Chromium only pulls remote audio through
// NetEq, and so only counts totalAudioEnergy, while a media element renders it), and reports
// inbound-rtp getStats every second.
//
// Query: ws, room, feed_id | feed_display, find_timeout (s), display, pin, token, debug=0|1.
// Reports: ready {feed, room} on webrtcup; stats {t, audio, video, streams, data} every second.
"use strict";

(() => {
  let janus = null;
  let handle = null;
  let stopping = false;
  let statsTimer = null;
  const events = new Waiter();
  let readyResolve;
  const webrtcUp = new Promise((resolve) => { readyResolve = resolve; });
  const started = Date.now();
  let dataCount = 0;
  let dataLast = null;

  function gone(reason) {
    if (!stopping) fail(reason);
  }

  async function findFeed() {
    if (Q.feed_id) return Q.feed_id;
    const deadline = Date.now() + 1000 * parseFloat(Q.find_timeout || "15");
    for (;;) {
      const res = await syncRequest(handle, { request: "listparticipants", room: Q.room });
      // 426 no such room: the publisher we wait for may be the one creating it.
      if (res.error_code && res.error_code !== 426) throw new Error(`listparticipants: ${res.error_code} ${res.error}`);
      const p = (res.participants || []).find((x) => x.display === Q.feed_display && x.publisher);
      if (p) return p.id;
      if (Date.now() > deadline) throw new Error(`no publisher "${Q.feed_display}" in room ${Q.room}`);
      await sleep(250);
    }
  }

  function onRemoteTrack(track, mid, on) {
    note(`remote track ${track.kind} mid=${mid} ${on ? "on" : "off"}`);
    const id = `m-${mid}`;
    let el = document.getElementById(id);
    if (!on) return;  // keep the element: a muted track may come back
    if (!el) {
      el = document.createElement(track.kind === "audio" ? "audio" : "video");
      el.id = id;
      el.autoplay = true;
      el.playsInline = true;
      document.getElementById("media").appendChild(el);
    }
    const cur = el.srcObject && el.srcObject.getTracks()[0];
    if (cur === track) return;  // janus.js reports a track again on unmute
    el.srcObject = new MediaStream([track]);
    el.play().catch((e) => note(`play ${track.kind}: ${e.message}`));
  }

  async function main() {
    await janusInit();
    janus = await janusSession(gone);
    handle = await attachVideoRoom(janus, {
      onmessage: (msg, jsep) => {
        note(`event ${JSON.stringify(msg)}`);
        if (jsep && jsep.type === "offer") answer(jsep);
        if (!events.deliver(msg, jsep) && msg && msg.error_code) gone(`Janus error ${msg.error_code} ${msg.error}`);
      },
      onremotetrack: onRemoteTrack,
      webrtcState: (up, reason) => {
        note(`webrtcState ${up} ${reason || ""}`);
        if (up) readyResolve();
        else gone(`PeerConnection down: ${reason || "hangup"}`);
      },
      iceState: (state) => { note(`iceState ${state}`); if (state === "failed") gone("ICE failed"); },
      ondata: (data, label) => {
        dataCount += 1;
        dataLast = String(data).slice(0, 200);
        note(`data <${label}>: ${dataLast.slice(0, 80)}`);
      },
      oncleanup: () => note("cleanup"),
    });

    const feed = await findFeed();
    const join = { request: "join", ptype: "subscriber", room: Q.room, streams: [{ feed }] };
    if (Q.pin) join.pin = Q.pin;
    const attached = events.next((m) => m && m.videoroom === "attached", 10000, "subscribe");
    await asyncRequest(handle, join);
    await attached;
    await withTimeout(webrtcUp, 30000, "webrtcup");
    report("ready", { feed, room: Q.room });
    statsTimer = setInterval(sendStats, 1000);
  }

  // Janus offers (also again on renegotiation); we answer with no sending tracks but our own
  // data channel, since Janus relays data only to subscribers that opened one.
  function answer(jsep) {
    handle.createAnswer({
      jsep,
      tracks: [{ type: "data" }],
      success: (ans) => {
        asyncRequest(handle, { request: "start", room: Q.room }, ans).catch((e) => gone(e.message));
      },
      error: (e) => gone(`createAnswer: ${e && e.message ? e.message : e}`),
    });
  }

  async function sendStats() {
    const pc = handle && handle.webrtcStuff && handle.webrtcStuff.pc;
    if (!pc) return;
    const s = await rtpStats(pc, "inbound-rtp");
    s.data = { messages: dataCount, last: dataLast };
    report("stats", Object.assign({ t: (Date.now() - started) / 1000 }, s));
  }

  window.agentdStop = async () => {
    stopping = true;
    clearInterval(statsTimer);
    if (handle) {
      try {
        await asyncRequest(handle, { request: "leave" });
      } catch (e) {
        note(`leave: ${e.message}`);
      }
      handle.hangup();
    }
    if (janus) await destroySession(janus);
    return true;
  };

  main().catch((e) => fail(e));
})();
