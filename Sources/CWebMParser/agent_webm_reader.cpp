// The C API of agent_webm_reader.h: a FILE-backed webm::FileReader, a webm::WebmParser and the
// FrameCollector callback, driven one frame at a time. Every entry point catches all exceptions,
// so none can unwind into Swift.
#include "agent_webm_reader.h"

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <utility>

#include <sys/stat.h>

#include <webm/file_reader.h>
#include <webm/status.h>
#include <webm/webm_parser.h>

#include "webm_frame_collector.h"

struct agent_webm_reader {
    webm::FileReader file;
    webm::WebmParser parser;
    agent_webm::FrameCollector collector;
    /// The frame last handed out; its bytes stay valid until the next call.
    agent_webm::CollectedFrame current;
    /// The first error, returned again by every later call.
    agent_webm_status failed = AGENT_WEBM_OK;
    std::string message;
    bool finished = false;

    explicit agent_webm_reader(webm::FileReader&& reader) : file(std::move(reader)) {}

    agent_webm_status Fail(agent_webm_status status, std::string why) {
        failed = status;
        message = std::move(why);
        return status;
    }
};

namespace {

const char* DescribeParsingError(std::int32_t code) {
    switch (code) {
    case webm::Status::kInvalidElementId: return "invalid element ID";
    case webm::Status::kInvalidElementSize: return "invalid element size";
    case webm::Status::kIndefiniteUnknownElement: return "unknown element of unknown size";
    case webm::Status::kElementOverflow: return "child element overflows its parent";
    case webm::Status::kNotEnoughMemory: return "element too large for memory";
    case webm::Status::kInvalidElementValue: return "invalid element value";
    case webm::Status::kExceededRecursionDepthLimit: return "elements nested too deeply";
    default: return "parsing error";
    }
}

std::string AtByte(const std::string& what, std::uint64_t position) {
    return what + " at byte " + std::to_string(position);
}

/// Turns a Feed() status that stopped the parse for good into the reader's error.
agent_webm_status Classify(agent_webm_reader* reader, webm::Status status) {
    const agent_webm::FrameCollector& collector = reader->collector;
    std::uint64_t position = reader->file.Position();
    switch (collector.failure()) {
    case agent_webm::Failure::kNotWebM: return reader->Fail(AGENT_WEBM_NOT_WEBM, collector.failure_message());
    case agent_webm::Failure::kCorrupt: return reader->Fail(AGENT_WEBM_CORRUPT, collector.failure_message());
    case agent_webm::Failure::kEndsEarly:
        // What libwebm would report after reading to the end of the file, without the reading
        // (or the allocation of what the element declared).
        status = webm::Status(webm::Status::kEndOfFile);
        position = collector.file_size();
        break;
    case agent_webm::Failure::kNone: break;
    }
    if (!collector.header_ok()) {
        const std::string why = status.code == webm::Status::kEndOfFile ? "the file ends" : DescribeParsingError(status.code);
        return reader->Fail(AGENT_WEBM_NOT_WEBM, AtByte("no WebM EBML header: " + why, position));
    }
    if (status.code == webm::Status::kEndOfFile) {
        return reader->Fail(AGENT_WEBM_TRUNCATED, AtByte("the file ends inside an element", position));
    }
    if (status.is_parsing_error()) {
        return reader->Fail(AGENT_WEBM_CORRUPT, AtByte(DescribeParsingError(status.code), position));
    }
    return reader->Fail(AGENT_WEBM_INTERNAL_ERROR,
                        AtByte("unexpected libwebm status " + std::to_string(status.code), position));
}

/// Feeds the parser until `done()` holds. OK then; END_OF_STREAM if the document ended first.
template <typename Done>
agent_webm_status Pump(agent_webm_reader* reader, Done done) {
    while (!done()) {
        if (reader->finished) return AGENT_WEBM_END_OF_STREAM;
        const webm::Status status = reader->parser.Feed(&reader->collector, &reader->file);
        if (status.completed_ok()) {
            reader->finished = true;
        } else if (reader->collector.paused()) {
            continue;  // the collector stopped after a frame or the headers; the next Feed resumes
        } else {
            return Classify(reader, status);
        }
    }
    return AGENT_WEBM_OK;
}

agent_webm_status FailFromException(agent_webm_reader* reader) {
    try {
        throw;
    } catch (const std::bad_alloc&) {
        return reader->Fail(AGENT_WEBM_INTERNAL_ERROR, "out of memory");
    } catch (const std::exception& error) {
        return reader->Fail(AGENT_WEBM_INTERNAL_ERROR, std::string("libwebm failed: ") + error.what());
    } catch (...) {
        return reader->Fail(AGENT_WEBM_INTERNAL_ERROR, "libwebm failed with an unknown exception");
    }
}

void CopyMessage(const std::string& text, char* message, std::size_t capacity) {
    if (message == nullptr || capacity == 0) return;
    std::snprintf(message, capacity, "%s", text.c_str());
}

}  // namespace

extern "C" {

agent_webm_status agent_webm_reader_open(const char* path, agent_webm_reader** reader_out, char* message,
                                         std::size_t message_capacity) {
    if (reader_out == nullptr) return AGENT_WEBM_INTERNAL_ERROR;
    *reader_out = nullptr;
    if (path == nullptr) {
        CopyMessage("no path", message, message_capacity);
        return AGENT_WEBM_CANNOT_OPEN;
    }
    std::FILE* file = std::fopen(path, "rb");
    if (file == nullptr) {
        CopyMessage(std::strerror(errno), message, message_capacity);
        return AGENT_WEBM_CANNOT_OPEN;
    }
    struct stat info;
    const bool regular = fstat(fileno(file), &info) == 0 && S_ISREG(info.st_mode);
    const int descriptor = fileno(file);
    agent_webm_reader* reader = nullptr;
    try {
        webm::FileReader file_reader(file);  // owns the FILE from here on
        reader = new agent_webm_reader(std::move(file_reader));
    } catch (...) {
        CopyMessage("out of memory", message, message_capacity);
        return AGENT_WEBM_INTERNAL_ERROR;
    }
    // A pipe or device has no size to check declared sizes against; the absolute limits still hold.
    if (regular) reader->collector.set_file(descriptor);
    agent_webm_status status;
    try {
        status = Pump(reader, [reader] { return reader->collector.headers_complete(); });
        if (status == AGENT_WEBM_END_OF_STREAM) {
            // A document without clusters: fine if it had a WebM header, however empty.
            if (reader->collector.header_ok()) {
                status = AGENT_WEBM_OK;
            } else {
                const std::uint64_t size = reader->file.Position();
                status = reader->Fail(AGENT_WEBM_NOT_WEBM, size == 0 ? "the file is empty" : "no EBML header");
            }
        }
    } catch (...) {
        status = FailFromException(reader);
    }
    if (status != AGENT_WEBM_OK) {
        CopyMessage(reader->message, message, message_capacity);
        delete reader;
        return status;
    }
    *reader_out = reader;
    return AGENT_WEBM_OK;
}

std::size_t agent_webm_reader_track_count(const agent_webm_reader* reader) {
    return reader == nullptr ? 0 : reader->collector.tracks().size();
}

bool agent_webm_reader_track_at(const agent_webm_reader* reader, std::size_t index, agent_webm_track* track_out) {
    if (reader == nullptr || track_out == nullptr || index >= reader->collector.tracks().size()) return false;
    const agent_webm::TrackRecord& track = reader->collector.tracks()[index];
    track_out->number = track.number;
    track_out->type = static_cast<agent_webm_track_type>(track.type);
    track_out->codec_id = track.codec_id.c_str();
    track_out->pixel_width = track.pixel_width;
    track_out->pixel_height = track.pixel_height;
    track_out->channels = track.channels;
    track_out->sampling_frequency = track.sampling_frequency;
    track_out->codec_delay_ns = track.codec_delay_ns;
    track_out->default_duration_ns = track.default_duration_ns;
    track_out->codec_private = track.codec_private.empty() ? nullptr : track.codec_private.data();
    track_out->codec_private_size = track.codec_private.size();
    return true;
}

agent_webm_status agent_webm_reader_next_frame(agent_webm_reader* reader, agent_webm_frame* frame_out) {
    if (reader == nullptr || frame_out == nullptr) return AGENT_WEBM_INTERNAL_ERROR;
    if (reader->failed != AGENT_WEBM_OK) return reader->failed;
    try {
        std::deque<agent_webm::CollectedFrame>& ready = reader->collector.ready();
        const agent_webm_status status = Pump(reader, [&ready] { return !ready.empty(); });
        if (status != AGENT_WEBM_OK) return status;
        reader->current = std::move(ready.front());
        ready.pop_front();
    } catch (...) {
        return FailFromException(reader);
    }
    const agent_webm::CollectedFrame& frame = reader->current;
    frame_out->track_number = frame.track_number;
    frame_out->timestamp_ns = frame.timestamp_ns;
    frame_out->is_keyframe = frame.is_keyframe;
    frame_out->lace_index = frame.lace_index;
    frame_out->lace_count = frame.lace_count;
    frame_out->bytes = frame.bytes.data();
    frame_out->size = frame.bytes.size();
    return AGENT_WEBM_OK;
}

const char* agent_webm_reader_message(const agent_webm_reader* reader) {
    return reader == nullptr ? "" : reader->message.c_str();
}

std::uint64_t agent_webm_reader_bytes_consumed(const agent_webm_reader* reader) {
    return reader == nullptr ? 0 : reader->file.Position();
}

void agent_webm_reader_close(agent_webm_reader* reader) {
    delete reader;
}

}  // extern "C"
