// Publisher page: joins a VideoRoom as publisher and publishes the fake camera and microphone
// (files given to Chromium by driver.py), optionally a data channel with a message every N ms.
//
// Query: ws, room, display, create=0|1, videocodec=(''|vp8|vp9|h264), data_ms, stats=0|1,
//        width, height, fps, audio=0|1, video=0|1, pin, token, debug=0|1.
// Reports: ready {id, room, audio_codec, video_codec} on webrtcup; stats every second if stats=1.
"use strict";

(() => {
  let janus = null;
  let handle = null;
  let stream = null;
  let joined = false;
  let published = false;
  let stopping = false;
  let dataTimer = null;
  let statsTimer = null;
  const events = new Waiter();
  let readyResolve;
  const webrtcUp = new Promise((resolve) => { readyResolve = resolve; });

  const wantAudio = Q.audio !== "0";
  const wantVideo = Q.video !== "0";
  const dataMs = parseInt(Q.data_ms || "0", 10);

  function gone(reason) {
    if (!stopping) fail(reason);
  }

  async function main() {
    await janusInit();
    janus = await janusSession(gone);
    handle = await attachVideoRoom(janus, {
      onmessage: (msg, jsep) => {
        note(`event ${JSON.stringify(msg)}`);
        if (!events.deliver(msg, jsep) && msg && msg.error_code) gone(`Janus error ${msg.error_code} ${msg.error}`);
      },
      webrtcState: (up, reason) => {
        note(`webrtcState ${up} ${reason || ""}`);
        if (up) readyResolve();
        else gone(`PeerConnection down: ${reason || "hangup"}`);
      },
      iceState: (state) => { note(`iceState ${state}`); if (state === "failed") gone("ICE failed"); },
      ondataopen: (label) => { note(`data channel ${label} open`); startData(label); },
      oncleanup: () => note("cleanup"),
    });

    if (Q.create === "1") {
      // Put a forced codec first so the room prefers it even without the publish hint.
      const codecs = ["vp8", "vp9", "h264"];
      const vc = Q.videocodec ? [Q.videocodec, ...codecs.filter((c) => c !== Q.videocodec)] : codecs;
      const create = { request: "create", room: Q.room, publishers: 16, audiocodec: "opus",
                       videocodec: vc.join(","), bitrate: 1024000, fir_freq: 10 };
      if (Q.pin) create.pin = Q.pin;
      const res = await syncRequest(handle, create);
      if (res.videoroom !== "created" && res.error_code !== 427) throw new Error(`create: ${JSON.stringify(res)}`);
    }

    const join = { request: "join", ptype: "publisher", room: Q.room, display: Q.display };
    if (Q.pin) join.pin = Q.pin;
    const joinedEv = events.next((m) => m && m.videoroom === "joined", 10000, "join");
    await asyncRequest(handle, join);
    const { msg: j } = await joinedEv;
    joined = true;
    const myId = j.id;

    // Our own getUserMedia, so the processing that would eat a steady test tone is off.
    stream = await navigator.mediaDevices.getUserMedia({
      audio: wantAudio ? { echoCancellation: false, noiseSuppression: false, autoGainControl: false,
                           channelCount: 1 } : false,
      video: wantVideo ? { width: { ideal: +Q.width }, height: { ideal: +Q.height },
                           frameRate: { ideal: +Q.fps } } : false,
    });
    const local = document.getElementById("local");
    if (local) local.srcObject = stream;

    const tracks = [];
    if (wantAudio) tracks.push({ type: "audio", capture: stream.getAudioTracks()[0], recv: false });
    if (wantVideo) tracks.push({ type: "video", capture: stream.getVideoTracks()[0], recv: false });
    if (dataMs > 0) tracks.push({ type: "data" });
    const offer = await new Promise((resolve, reject) => {
      handle.createOffer({ tracks, success: resolve, error: (e) => reject(new Error(`createOffer: ${e && e.message ? e.message : e}`)) });
    });

    const publish = { request: "publish", display: Q.display };
    if (Q.videocodec) publish.videocodec = Q.videocodec;
    const answerEv = events.next((m, jsep) => m && m.configured === "ok" && jsep, 10000, "publish");
    await asyncRequest(handle, publish, offer);
    const { msg: conf, jsep } = await answerEv;
    published = true;
    handle.handleRemoteJsep({ jsep, error: (e) => gone(`handleRemoteJsep: ${e}`) });

    await withTimeout(webrtcUp, 30000, "webrtcup");
    report("ready", { id: myId, room: Q.room, audio_codec: conf.audio_codec || null,
                      video_codec: conf.video_codec || null });
    if (Q.stats === "1") statsTimer = setInterval(sendStats, 1000);
  }

  function startData(label) {
    if (dataMs <= 0 || dataTimer) return;
    let seq = 0;
    dataTimer = setInterval(() => {
      handle.data({ label, text: JSON.stringify({ seq: seq++, from: Q.display }), error: (e) => note(`data: ${e}`) });
    }, dataMs);
  }

  async function sendStats() {
    const pc = handle && handle.webrtcStuff && handle.webrtcStuff.pc;
    if (!pc) return;
    const s = await rtpStats(pc, "outbound-rtp");
    report("stats", Object.assign({ t: performance.now() / 1000 }, s));
  }

  window.agentdStop = async () => {
    stopping = true;
    clearInterval(dataTimer);
    clearInterval(statsTimer);
    try {
      if (handle && published) {
        const ev = events.next((m) => m && m.unpublished !== undefined, 3000, "unpublish");
        await asyncRequest(handle, { request: "unpublish" });
        await ev.catch(() => {});
      }
      if (handle && joined) {
        const ev = events.next((m) => m && m.leaving !== undefined, 3000, "leave");
        await asyncRequest(handle, { request: "leave" });
        await ev.catch(() => {});
      }
    } catch (e) {
      note(`leave: ${e.message}`);
    }
    if (handle) handle.hangup();
    if (stream) stream.getTracks().forEach((t) => t.stop());
    if (janus) await destroySession(janus);
    return true;
  };

  main().catch((e) => fail(e));
})();
