// Shared helpers for the Chromium test peer pages (publisher.html, subscriber.html).
//
// The page talks to driver.py only through the CDP binding `agentdReport` (added with
// Runtime.addBinding before navigation): report(type, data) sends one JSON message, which the
// driver turns into READY/STATS lines on stdout or an error exit. The driver ends a run by
// evaluating `agentdStop()` (awaitPromise), which each page defines.
"use strict";

const Q = Object.fromEntries(new URLSearchParams(location.search));
const DEBUG = Q.debug === "1";

function report(type, data) {
  const msg = JSON.stringify({ type, data: data || {} });
  if (typeof window.agentdReport === "function") window.agentdReport(msg);
  else console.log("agentdReport missing:", msg);
}

function fail(message) {
  report("error", { message: String(message && message.message ? message.message : message) });
}

function note(message) {
  if (DEBUG) console.log("[agentd]", message);
}

window.addEventListener("error", (e) => fail(`uncaught: ${e.message}`));
window.addEventListener("unhandledrejection", (e) => fail(`unhandled rejection: ${e.reason && e.reason.message ? e.reason.message : e.reason}`));

function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms); }),
  ]).finally(() => clearTimeout(timer));
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function janusInit() {
  return new Promise((resolve) => {
    Janus.init({
      debug: Q.janus_debug === "1" ? "all" : ["warn", "error"],
      dependencies: Janus.useDefaultDependencies(),
      callback: resolve,
    });
  });
}

// Creates the Janus session. `iceServers: []` keeps ICE on host candidates: the lab must never
// reach a public STUN server (some janus.js versions default to one).
function janusSession(onDestroyed) {
  return new Promise((resolve, reject) => {
    let settled = false;
    const opts = {
      server: Q.ws,
      iceServers: [],
      success: () => { settled = true; resolve(janus); },
      error: (err) => {
        if (!settled) { settled = true; reject(new Error(`Janus session: ${err}`)); }
        else onDestroyed(`Janus session error: ${err}`);
      },
      destroyed: () => onDestroyed("Janus session destroyed"),
    };
    if (Q.token) opts.token = Q.token;
    const janus = new Janus(opts);
  });
}

// Attaches to the VideoRoom plugin. Plugin events go through `waiter` so code can await
// "the next event matching a predicate" instead of juggling callbacks.
class Waiter {
  constructor() { this.waiting = []; this.listeners = []; }
  deliver(msg, jsep) {
    for (const l of this.listeners) l(msg, jsep);
    const hit = this.waiting.find((w) => w.match(msg, jsep));
    if (hit) {
      this.waiting.splice(this.waiting.indexOf(hit), 1);
      hit.resolve({ msg, jsep });
      return true;
    }
    return false;
  }
  next(match, ms, what) {
    return withTimeout(new Promise((resolve, reject) => {
      this.waiting.push({ match: (m, j) => {
        if (m && m.error_code) { reject(new Error(`${what}: Janus error ${m.error_code} ${m.error}`)); return true; }
        return match(m, j);
      }, resolve });
    }), ms, what);
  }
}

function attachVideoRoom(janus, callbacks) {
  return new Promise((resolve, reject) => {
    janus.attach(Object.assign({
      plugin: "janus.plugin.videoroom",
      opaqueId: `agentd-chromium-${Math.random().toString(36).slice(2)}`,
      success: resolve,
      error: (err) => reject(new Error(`attach: ${err}`)),
    }, callbacks));
  });
}

// A synchronous plugin request (create, listparticipants, ...): resolves with plugin data.
function syncRequest(handle, message) {
  return withTimeout(new Promise((resolve, reject) => {
    handle.send({ message, success: resolve, error: (err) => reject(new Error(`${message.request}: ${err}`)) });
  }), 10000, message.request);
}

// An asynchronous plugin request: resolves once Janus acked it; the result arrives as an event.
function asyncRequest(handle, message, jsep) {
  return withTimeout(new Promise((resolve, reject) => {
    const req = { message, success: resolve, error: (err) => reject(new Error(`${message.request}: ${err}`)) };
    if (jsep) req.jsep = jsep;
    handle.send(req);
  }), 10000, message.request);
}

function destroySession(janus) {
  return withTimeout(new Promise((resolve) => {
    janus.destroy({ success: resolve, error: resolve, cleanupHandles: true });
  }), 3000, "destroy").catch(() => {});
}

// inbound-rtp / outbound-rtp entries of pc.getStats() in the shape driver.py prints as STATS.
async function rtpStats(pc, type) {
  const report = await pc.getStats();
  const byId = new Map();
  report.forEach((s) => byId.set(s.id, s));
  const streams = [];
  report.forEach((s) => {
    if (s.type !== type) return;
    const codec = s.codecId && byId.get(s.codecId);
    const e = { kind: s.kind, mid: s.mid ?? null, ssrc: s.ssrc, codec: codec ? codec.mimeType : null };
    const fields = type === "inbound-rtp"
      ? ["packetsReceived", "packetsLost", "nackCount", "bytesReceived", "jitter", "framesDecoded",
         "framesReceived", "framesDropped", "keyFramesDecoded", "frameWidth", "frameHeight",
         "framesPerSecond", "firCount", "pliCount", "decoderImplementation", "totalAudioEnergy",
         "totalSamplesDuration", "totalSamplesReceived", "concealedSamples", "audioLevel"]
      : ["packetsSent", "bytesSent", "retransmittedPacketsSent", "nackCount", "framesEncoded",
         "keyFramesEncoded", "frameWidth", "frameHeight", "framesPerSecond", "firCount", "pliCount",
         "encoderImplementation", "qualityLimitationReason", "targetBitrate"];
    for (const f of fields) if (s[f] !== undefined) e[f] = s[f];
    streams.push(e);
  });
  streams.sort((a, b) => String(a.mid).localeCompare(String(b.mid)));
  const first = (kind) => streams.find((e) => e.kind === kind) || null;
  return { audio: first("audio"), video: first("video"), streams };
}
