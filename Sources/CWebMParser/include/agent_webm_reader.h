// A small C API over libwebm's incremental parser (webm::WebmParser), so Swift can read the
// stored frames of a WebM file without knowing C++. The file is streamed: opening it parses the
// headers up to the first cluster, and each agent_webm_reader_next_frame() call parses only as
// far as the next frame. Nothing here throws or aborts on bad input: every failure is a status
// plus a message.
#ifndef AGENT_WEBM_READER_H
#define AGENT_WEBM_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What a call achieved. Once a reader has returned an error it returns the same error forever.
typedef enum agent_webm_status {
    AGENT_WEBM_OK = 0,
    /// No more frames: the file ended cleanly.
    AGENT_WEBM_END_OF_STREAM = 1,
    /// The file could not be opened (the message carries strerror).
    AGENT_WEBM_CANNOT_OPEN = 2,
    /// The file does not start with an EBML header whose DocType is "webm" or "matroska".
    AGENT_WEBM_NOT_WEBM = 3,
    /// The file ends inside an element (a cut download or a crashed writer).
    AGENT_WEBM_TRUNCATED = 4,
    /// An element is malformed (bad ID, size, value, overflow, absurd frame size or timestamp).
    AGENT_WEBM_CORRUPT = 5,
    /// Out of memory, or anything else the C++ side did not expect.
    AGENT_WEBM_INTERNAL_ERROR = 6,
} agent_webm_status;

/// The TrackType element: 1 video, 2 audio; anything else (subtitles, buttons...) is "other".
typedef enum agent_webm_track_type {
    AGENT_WEBM_TRACK_OTHER = 0,
    AGENT_WEBM_TRACK_VIDEO = 1,
    AGENT_WEBM_TRACK_AUDIO = 2,
} agent_webm_track_type;

/// One TrackEntry. Pointers are owned by the reader and valid until it is closed.
typedef struct agent_webm_track {
    uint64_t number;
    agent_webm_track_type type;
    /// The CodecID element, NUL-terminated: "V_VP8", "A_OPUS", "V_VP9", "A_VORBIS"...
    const char *codec_id;
    /// Video PixelWidth/PixelHeight; 0 when absent or for audio.
    uint64_t pixel_width;
    uint64_t pixel_height;
    /// Audio Channels and SamplingFrequency; 0 for video.
    uint64_t channels;
    double sampling_frequency;
    /// CodecDelay in ns (Opus pre-skip): subtract it from block times to get presentation times.
    uint64_t codec_delay_ns;
    /// DefaultDuration in ns, 0 when absent.
    uint64_t default_duration_ns;
    /// CodecPrivate (OpusHead for Opus), NULL with size 0 when absent.
    const uint8_t *codec_private;
    size_t codec_private_size;
} agent_webm_track;

/// One frame of a SimpleBlock or a Block (inside a BlockGroup). A laced block yields one frame per
/// lace, all with the block's timestamp and lace_index 0..<lace_count.
typedef struct agent_webm_frame {
    uint64_t track_number;
    /// (cluster Timecode + block timecode) x TimecodeScale, in ns. CodecDelay is not subtracted.
    int64_t timestamp_ns;
    /// SimpleBlock: the keyframe flag. BlockGroup: true when it has no ReferenceBlock.
    bool is_keyframe;
    uint32_t lace_index;
    uint32_t lace_count;
    /// The frame's bytes, owned by the reader and valid until the next call on it.
    const uint8_t *bytes;
    size_t size;
} agent_webm_frame;

typedef struct agent_webm_reader agent_webm_reader;

/// Frames announcing more bytes than this are refused as corrupt (no real VP8 or Opus frame comes
/// near it, and refusing avoids allocating gigabytes on a garbage size field).
#define AGENT_WEBM_MAX_FRAME_SIZE ((uint64_t)64 << 20)

/// libwebm reads string and binary elements (DocType, CodecID, CodecPrivate, tag values...)
/// whole into memory, allocating what the element's size field declares before reading a byte.
/// One declaring more than this is refused as corrupt (real ones are a few KB at most), and one
/// (or a frame) declaring more bytes than the file still holds is refused as truncated, before
/// anything is allocated: a 26-byte file declaring a 1 GiB DocType made the reader take 1 GB.
#define AGENT_WEBM_MAX_ELEMENT_SIZE ((uint64_t)16 << 20)

/// More TrackEntry elements than this are refused as corrupt (WebM files have one or two).
#define AGENT_WEBM_MAX_TRACKS 64

/// The limits above for Swift, which does not import macros with casts.
static inline uint64_t agent_webm_max_frame_size(void) { return AGENT_WEBM_MAX_FRAME_SIZE; }
static inline uint64_t agent_webm_max_element_size(void) { return AGENT_WEBM_MAX_ELEMENT_SIZE; }

/// Opens `path` and parses its headers (EBML header, Info, Tracks) up to the first cluster.
/// On AGENT_WEBM_OK `*reader_out` must later be closed; on anything else it is set to NULL and
/// `message` (if not NULL) receives a NUL-terminated reason, cut to `message_capacity` bytes.
agent_webm_status agent_webm_reader_open(const char *path, agent_webm_reader **reader_out,
                                         char *message, size_t message_capacity);

size_t agent_webm_reader_track_count(const agent_webm_reader *reader);

/// Fills `track_out` with the track at `index` (in file order). False when out of range.
bool agent_webm_reader_track_at(const agent_webm_reader *reader, size_t index, agent_webm_track *track_out);

/// The next frame of any track, in file order. AGENT_WEBM_END_OF_STREAM at the clean end; an
/// error status (with agent_webm_reader_message) when the rest cannot be read.
agent_webm_status agent_webm_reader_next_frame(agent_webm_reader *reader, agent_webm_frame *frame_out);

/// Why the last call failed; "" when it did not.
const char *agent_webm_reader_message(const agent_webm_reader *reader);

/// How many bytes of the file the parser has consumed so far (its read position).
uint64_t agent_webm_reader_bytes_consumed(const agent_webm_reader *reader);

/// Frees the reader and closes its file. NULL is allowed.
void agent_webm_reader_close(agent_webm_reader *reader);

#ifdef __cplusplus
}
#endif

#endif
