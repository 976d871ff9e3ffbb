#include "webm_frame_collector.h"

#include <cinttypes>
#include <cstdio>
#include <limits>
#include <utility>

#include <sys/stat.h>

#include <webm/element.h>
#include <webm/id.h>

#include "agent_webm_reader.h"

namespace agent_webm {

namespace {

const webm::Status kCompleted(webm::Status::kOkCompleted);

std::string Format(const char* format, std::uint64_t a, std::uint64_t b = 0, std::uint64_t c = 0) {
    char text[200];
    std::snprintf(text, sizeof text, format, a, b, c);
    return text;
}

/// The string and binary elements libwebm parses into memory (webm/id.h types "ASCII string",
/// "UTF-8 string" and "Binary"), by name. Blocks are not here: their frames reach OnFrame in
/// pieces, checked there. Void and unknown elements are skipped, never held.
const char* HeldElementName(webm::Id id) {
    switch (id) {
    case webm::Id::kDocType: return "DocType";
    case webm::Id::kSeekId: return "SeekID";
    case webm::Id::kTitle: return "Title";
    case webm::Id::kMuxingApp: return "MuxingApp";
    case webm::Id::kWritingApp: return "WritingApp";
    case webm::Id::kBlockAdditional: return "BlockAdditional";
    case webm::Id::kName: return "Name";
    case webm::Id::kLanguage: return "Language";
    case webm::Id::kCodecId: return "CodecID";
    case webm::Id::kCodecPrivate: return "CodecPrivate";
    case webm::Id::kCodecName: return "CodecName";
    case webm::Id::kProjectionPrivate: return "ProjectionPrivate";
    case webm::Id::kContentEncKeyId: return "ContentEncKeyID";
    case webm::Id::kChapterStringUid: return "ChapterStringUID";
    case webm::Id::kChapString: return "ChapString";
    case webm::Id::kChapLanguage: return "ChapLanguage";
    case webm::Id::kChapCountry: return "ChapCountry";
    case webm::Id::kTargetType: return "TargetType";
    case webm::Id::kTagName: return "TagName";
    case webm::Id::kTagLanguage: return "TagLanguage";
    case webm::Id::kTagString: return "TagString";
    case webm::Id::kTagBinary: return "TagBinary";
    default: return nullptr;
    }
}

}  // namespace

webm::Status FrameCollector::Pause() {
    resume_pending_ = true;
    return webm::Status(webm::Status::kWouldBlock);
}

bool FrameCollector::TakeResume() {
    const bool resuming = resume_pending_;
    resume_pending_ = false;
    return resuming;
}

webm::Status FrameCollector::Fail(Failure failure, std::string message) {
    failure_ = failure;
    failure_message_ = std::move(message);
    return webm::Status(static_cast<std::int32_t>(failure));
}

bool FrameCollector::EndsPastFile(std::uint64_t body_start, std::uint64_t size) {
    if (file_descriptor_ < 0) return false;
    std::uint64_t end = 0;
    if (__builtin_add_overflow(body_start, size, &end)) return true;
    if (end <= file_size_) return false;
    // The size is looked up again only when the last one is too small, so a file that grows
    // while it is read (a recording in progress) is read as far as it goes.
    struct stat info;
    if (fstat(file_descriptor_, &info) != 0 || info.st_size < 0) return false;
    file_size_ = static_cast<std::uint64_t>(info.st_size);
    return end > file_size_;
}

/// Called for every element before libwebm reads its body (OnElementBegin), which for a string
/// or binary element means before it allocates the declared size.
webm::Status FrameCollector::CheckDeclaredSize(const webm::ElementMetadata& metadata) {
    const char* name = HeldElementName(metadata.id);
    // An unknown size is refused by libwebm itself for these (kInvalidElementSize).
    if (name == nullptr || metadata.size == webm::kUnknownElementSize) return kCompleted;
    if (metadata.size > AGENT_WEBM_MAX_ELEMENT_SIZE) {
        return Fail(Failure::kCorrupt, std::string("the ") + name +
                                           Format(" element at byte %" PRIu64 " declares %" PRIu64
                                                  " bytes, more than the %" PRIu64 " the reader takes",
                                                  metadata.position, metadata.size, AGENT_WEBM_MAX_ELEMENT_SIZE));
    }
    if (metadata.position != webm::kUnknownElementPosition && metadata.header_size != webm::kUnknownHeaderSize &&
        EndsPastFile(metadata.position + metadata.header_size, metadata.size)) {
        return Fail(Failure::kEndsEarly, "");
    }
    return kCompleted;
}

webm::Status FrameCollector::OnElementBegin(const webm::ElementMetadata& metadata, webm::Action* action) {
    *action = webm::Action::kRead;
    if (!saw_first_element_) {
        saw_first_element_ = true;
        if (metadata.id != webm::Id::kEbml) {
            return Fail(Failure::kNotWebM,
                        Format("the file starts with element ID 0x%" PRIX64 ", not an EBML header",
                               static_cast<std::uint64_t>(metadata.id)));
        }
    }
    return CheckDeclaredSize(metadata);
}

webm::Status FrameCollector::OnEbml(const webm::ElementMetadata&, const webm::Ebml& ebml) {
    const std::string& doc_type = ebml.doc_type.value();
    if (doc_type != "webm" && doc_type != "matroska") {
        return Fail(Failure::kNotWebM, "the EBML DocType is \"" + doc_type.substr(0, 40) + "\", not webm");
    }
    header_ok_ = true;
    return kCompleted;
}

webm::Status FrameCollector::OnSegmentBegin(const webm::ElementMetadata&, webm::Action* action) {
    *action = webm::Action::kRead;
    if (!header_ok_) return Fail(Failure::kNotWebM, "a Segment comes before any EBML header");
    return kCompleted;
}

webm::Status FrameCollector::OnInfo(const webm::ElementMetadata& metadata, const webm::Info& info) {
    const std::uint64_t scale = info.timecode_scale.value();
    if (scale == 0 || scale > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
        return Fail(Failure::kCorrupt, Format("TimecodeScale %" PRIu64 " at byte %" PRIu64 " is unusable", scale,
                                              metadata.position));
    }
    timecode_scale_ = scale;
    return kCompleted;
}

webm::Status FrameCollector::OnTrackEntry(const webm::ElementMetadata&, const webm::TrackEntry& entry) {
    // Tracks elements after the first cluster (rare, and never in WebM) cannot change what
    // the caller already chose to play.
    if (headers_complete_) return kCompleted;
    if (tracks_.size() >= AGENT_WEBM_MAX_TRACKS) {
        return Fail(Failure::kCorrupt, Format("more than %" PRIu64 " tracks", AGENT_WEBM_MAX_TRACKS));
    }
    TrackRecord track;
    track.number = entry.track_number.value();
    switch (entry.track_type.value()) {
    case webm::TrackType::kVideo: track.type = AGENT_WEBM_TRACK_VIDEO; break;
    case webm::TrackType::kAudio: track.type = AGENT_WEBM_TRACK_AUDIO; break;
    default: track.type = AGENT_WEBM_TRACK_OTHER; break;
    }
    track.codec_id = entry.codec_id.value();
    if (entry.video.is_present()) {
        track.pixel_width = entry.video.value().pixel_width.value();
        track.pixel_height = entry.video.value().pixel_height.value();
    }
    if (entry.audio.is_present()) {
        track.channels = entry.audio.value().channels.value();
        track.sampling_frequency = entry.audio.value().sampling_frequency.value();
    }
    track.codec_delay_ns = entry.codec_delay.value();
    track.default_duration_ns = entry.default_duration.is_present() ? entry.default_duration.value() : 0;
    if (entry.codec_private.is_present()) track.codec_private = entry.codec_private.value();
    tracks_.push_back(std::move(track));
    return kCompleted;
}

webm::Status FrameCollector::OnClusterBegin(const webm::ElementMetadata&, const webm::Cluster& cluster,
                                            webm::Action* action) {
    *action = webm::Action::kRead;
    cluster_timecode_ = cluster.timecode.value();
    if (TakeResume()) return kCompleted;
    if (!headers_complete_) {
        headers_complete_ = true;
        return Pause();
    }
    return kCompleted;
}

webm::Status FrameCollector::BeginBlock(const webm::ElementMetadata& metadata, const webm::Block& block,
                                        bool is_key_frame, bool in_group) {
    // (cluster Timecode + signed 16-bit block timecode) x TimecodeScale, without overflow.
    std::int64_t ticks = 0;
    std::int64_t nanoseconds = 0;
    if (cluster_timecode_ > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) ||
        __builtin_add_overflow(static_cast<std::int64_t>(cluster_timecode_), block.timecode, &ticks) ||
        __builtin_mul_overflow(ticks, static_cast<std::int64_t>(timecode_scale_), &nanoseconds)) {
        return Fail(Failure::kCorrupt, Format("the block at byte %" PRIu64 " has a timestamp out of range (cluster %" PRIu64 ")",
                                              metadata.position, cluster_timecode_));
    }
    block_ = CollectedFrame();
    block_.track_number = block.track_number;
    block_.timestamp_ns = nanoseconds;
    block_.is_keyframe = is_key_frame;
    block_.lace_count = block.num_frames > 0 ? static_cast<std::uint32_t>(block.num_frames) : 1;
    block_in_group_ = in_group;
    frame_started_ = false;
    group_frames_.clear();
    return kCompleted;
}

webm::Status FrameCollector::OnSimpleBlockBegin(const webm::ElementMetadata& metadata,
                                                const webm::SimpleBlock& simple_block, webm::Action* action) {
    *action = webm::Action::kRead;
    return BeginBlock(metadata, simple_block, simple_block.is_key_frame, false);
}

webm::Status FrameCollector::OnBlockBegin(const webm::ElementMetadata& metadata, const webm::Block& block,
                                          webm::Action* action) {
    *action = webm::Action::kRead;
    return BeginBlock(metadata, block, false, true);
}

webm::Status FrameCollector::OnBlockGroupEnd(const webm::ElementMetadata&, const webm::BlockGroup& block_group) {
    if (TakeResume()) return kCompleted;
    // A Block without ReferenceBlock elements references nothing: it decodes on its own.
    const bool is_key_frame = block_group.references.empty();
    for (CollectedFrame& frame : group_frames_) {
        frame.is_keyframe = is_key_frame;
        ready_.push_back(std::move(frame));
    }
    const bool produced = !group_frames_.empty();
    group_frames_.clear();
    return produced ? Pause() : kCompleted;
}

webm::Status FrameCollector::OnFrame(const webm::FrameMetadata& metadata, webm::Reader* reader,
                                     std::uint64_t* bytes_remaining) {
    if (TakeResume()) return kCompleted;  // the frame was delivered before the pause
    if (!frame_started_) {
        if (metadata.size > AGENT_WEBM_MAX_FRAME_SIZE) {
            return Fail(Failure::kCorrupt, Format("the frame at byte %" PRIu64 " claims %" PRIu64 " bytes",
                                                  metadata.position, metadata.size));
        }
        if (EndsPastFile(metadata.position, metadata.size)) return Fail(Failure::kEndsEarly, "");
        block_.bytes.assign(static_cast<std::size_t>(metadata.size), 0);
        frame_filled_ = 0;
        frame_started_ = true;
    }
    while (*bytes_remaining > 0) {
        const std::uint64_t room = block_.bytes.size() - frame_filled_;
        if (*bytes_remaining > room) {
            return Fail(Failure::kCorrupt, Format("the frame at byte %" PRIu64 " overruns its size %" PRIu64,
                                                  metadata.position, metadata.size));
        }
        std::uint64_t got = 0;
        const webm::Status status =
            reader->Read(static_cast<std::size_t>(*bytes_remaining), block_.bytes.data() + frame_filled_, &got);
        frame_filled_ += got;
        *bytes_remaining -= got;
        if (status.code == webm::Status::kOkPartial) continue;
        if (!status.completed_ok()) return status;  // kEndOfFile: the file is cut inside this frame
    }
    frame_started_ = false;
    CollectedFrame frame;
    frame.track_number = block_.track_number;
    frame.timestamp_ns = block_.timestamp_ns;
    frame.is_keyframe = block_.is_keyframe;
    frame.lace_count = block_.lace_count;
    frame.lace_index = block_.lace_index;
    frame.bytes = std::move(block_.bytes);
    block_.bytes = {};
    block_.lace_index += 1;
    if (block_in_group_) {
        group_frames_.push_back(std::move(frame));
        return kCompleted;
    }
    ready_.push_back(std::move(frame));
    return Pause();
}

}  // namespace agent_webm
