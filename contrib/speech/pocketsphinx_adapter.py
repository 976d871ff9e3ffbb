#!/usr/bin/env python3
"""An example recognizer for agentd's `command` speech engine (docs/speech-command-protocol.md).

It reads JSON lines on stdin: {"type":"audio","pcm":"<base64 s16le, 16 kHz mono>","t_ms":N} and
{"type":"end"}, and writes JSON lines on stdout: results {"text","final","start_ms","end_ms"} and,
after each end, {"type":"end"}. It decodes with the PyPI `pocketsphinx` 5 wheel, whose US English
model ships inside the wheel: nothing is downloaded, ever. scripts/setup installs it in .venv:

    CommandRecognizerConfiguration(executable: ".venv/bin/python", arguments: ["contrib/speech/pocketsphinx_adapter.py"])

The end of an utterance is left to the host (agentd's turn detector, or its endUtterance()); a
partial result comes every half second of audio while the hypothesis changes. Copy this file to
plug in another engine: keep the loop, replace Recognizer.
"""
import base64
import json
import sys

from pocketsphinx import Decoder

PARTIAL_EVERY_MS = 500
FRAME_MS = 10  # pocketsphinx's frame rate: 100 frames a second


class Recognizer:
    def __init__(self):
        # The default model is the wheel's own (pocketsphinx.get_model_path()).
        self.decoder = Decoder(samprate=16000, loglevel="FATAL")
        self.utterance_start_ms = None
        self.fed_ms = 0
        self.last_partial_ms = 0
        self.last_partial = ""

    def audio(self, pcm, t_ms):
        if self.utterance_start_ms is None:
            self.decoder.start_utt()
            self.utterance_start_ms = t_ms
            self.last_partial_ms = t_ms
            self.last_partial = ""
        self.decoder.process_raw(pcm, False, False)
        self.fed_ms = t_ms + len(pcm) // 32
        if self.fed_ms - self.last_partial_ms >= PARTIAL_EVERY_MS:
            self.last_partial_ms = self.fed_ms
            result = self.result(final=False)
            if result and result["text"] != self.last_partial:
                self.last_partial = result["text"]
                return [result]
        return []

    def end(self):
        if self.utterance_start_ms is None:
            return []
        self.decoder.end_utt()
        result = self.result(final=True)
        self.utterance_start_ms = None
        return [result] if result else []

    def result(self, final):
        """The hypothesis with times from the word segments; None when it has no words."""
        words = [(s.word.split("(")[0], s.start_frame, s.end_frame) for s in self.decoder.seg()
                 if not s.word.startswith(("<", "["))]
        if not words:
            return None
        start = self.utterance_start_ms + words[0][1] * FRAME_MS
        end = self.utterance_start_ms + (words[-1][2] + 1) * FRAME_MS
        return {"text": " ".join(w for w, _, _ in words), "final": final, "start_ms": start, "end_ms": end}


def main():
    recognizer = Recognizer()
    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "audio":
            results = recognizer.audio(base64.b64decode(message["pcm"]), int(message["t_ms"]))
        elif kind == "end":
            results = recognizer.end() + [{"type": "end"}]
        else:
            results = []
        for result in results:
            out.write(json.dumps(result) + "\n")
        out.flush()
    for result in recognizer.end():
        out.write(json.dumps(result) + "\n")
    out.flush()


if __name__ == "__main__":
    main()
