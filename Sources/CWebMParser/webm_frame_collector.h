// The webm::Callback behind agent_webm_reader: it records the EBML header, Info and Tracks, and
// turns blocks into whole frames with absolute timestamps. Internal to CWebMParser.
#ifndef AGENT_WEBM_FRAME_COLLECTOR_H
#define AGENT_WEBM_FRAME_COLLECTOR_H

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include <webm/callback.h>

namespace agent_webm {

/// What the reader keeps of one TrackEntry.
struct TrackRecord {
    std::uint64_t number = 0;
    int type = 0;  // agent_webm_track_type
    std::string codec_id;
    std::uint64_t pixel_width = 0;
    std::uint64_t pixel_height = 0;
    std::uint64_t channels = 0;
    double sampling_frequency = 0;
    std::uint64_t codec_delay_ns = 0;
    std::uint64_t default_duration_ns = 0;
    std::vector<std::uint8_t> codec_private;
};

/// One frame, copied out of the file.
struct CollectedFrame {
    std::uint64_t track_number = 0;
    std::int64_t timestamp_ns = 0;
    bool is_keyframe = false;
    std::uint32_t lace_index = 0;
    std::uint32_t lace_count = 1;
    std::vector<std::uint8_t> bytes;
};

/// Why the collector stopped the parse on purpose. Positive, so libwebm never takes them for its
/// own parsing errors (status.h reserves codes <= 0 for itself).
enum class Failure : std::int32_t {
    kNone = 0,
    kNotWebM = 1,
    kCorrupt = 2,
    /// An element or frame declares more bytes than the file has left: the parse would only
    /// reach the end of the file, after allocating what was declared.
    kEndsEarly = 3,
};

/// Streams a WebM document through libwebm's callbacks.
///
/// libwebm pauses a parse when a callback returns a status that is neither kOkCompleted nor a
/// parsing error: WebmParser::Feed() returns that status, and the next Feed() calls the same
/// callback method again (callback.h). The collector uses kWouldBlock for that, so one Feed()
/// parses no further than one frame:
///   - OnClusterBegin pauses once, at the first cluster, so opening a file reads only its headers;
///   - OnFrame pauses after each SimpleBlock frame (lace) it has read;
///   - OnBlockGroupEnd pauses after a BlockGroup, whose keyframe-ness (no ReferenceBlock) is only
///     known once the whole group is parsed.
/// The repeated call after a pause just returns kOkCompleted (`resume_pending_`).
class FrameCollector final : public webm::Callback {
public:
    webm::Status OnElementBegin(const webm::ElementMetadata& metadata, webm::Action* action) override;
    webm::Status OnEbml(const webm::ElementMetadata& metadata, const webm::Ebml& ebml) override;
    webm::Status OnSegmentBegin(const webm::ElementMetadata& metadata, webm::Action* action) override;
    webm::Status OnInfo(const webm::ElementMetadata& metadata, const webm::Info& info) override;
    webm::Status OnTrackEntry(const webm::ElementMetadata& metadata, const webm::TrackEntry& track_entry) override;
    webm::Status OnClusterBegin(const webm::ElementMetadata& metadata, const webm::Cluster& cluster,
                                webm::Action* action) override;
    webm::Status OnSimpleBlockBegin(const webm::ElementMetadata& metadata, const webm::SimpleBlock& simple_block,
                                    webm::Action* action) override;
    webm::Status OnBlockBegin(const webm::ElementMetadata& metadata, const webm::Block& block,
                              webm::Action* action) override;
    webm::Status OnBlockGroupEnd(const webm::ElementMetadata& metadata, const webm::BlockGroup& block_group) override;
    webm::Status OnFrame(const webm::FrameMetadata& metadata, webm::Reader* reader,
                         std::uint64_t* bytes_remaining) override;

    /// True once a well-formed EBML header naming "webm" or "matroska" has been parsed.
    bool header_ok() const { return header_ok_; }
    /// True once the first cluster started: every track seen so far is all there is.
    bool headers_complete() const { return headers_complete_; }
    /// True when the last Feed() stopped because the collector paused it.
    bool paused() const { return resume_pending_; }
    /// The open file (a regular one), so declared sizes can be checked against what is left
    /// before libwebm allocates them. Without it (a pipe) only the absolute limits apply.
    void set_file(int descriptor) { file_descriptor_ = descriptor; }
    /// The file's size when an element was found to run past it.
    std::uint64_t file_size() const { return file_size_; }
    Failure failure() const { return failure_; }
    const std::string& failure_message() const { return failure_message_; }
    const std::vector<TrackRecord>& tracks() const { return tracks_; }
    std::deque<CollectedFrame>& ready() { return ready_; }

private:
    webm::Status Pause();
    bool TakeResume();
    webm::Status Fail(Failure failure, std::string message);
    webm::Status CheckDeclaredSize(const webm::ElementMetadata& metadata);
    bool EndsPastFile(std::uint64_t body_start, std::uint64_t size);
    webm::Status BeginBlock(const webm::ElementMetadata& metadata, const webm::Block& block, bool is_key_frame,
                            bool in_group);

    bool saw_first_element_ = false;
    bool header_ok_ = false;
    bool headers_complete_ = false;
    bool resume_pending_ = false;
    int file_descriptor_ = -1;
    std::uint64_t file_size_ = 0;
    Failure failure_ = Failure::kNone;
    std::string failure_message_;

    std::uint64_t timecode_scale_ = 1000000;
    std::vector<TrackRecord> tracks_;

    std::uint64_t cluster_timecode_ = 0;

    // The block whose frames OnFrame is reading.
    CollectedFrame block_;
    bool block_in_group_ = false;
    bool frame_started_ = false;
    std::uint64_t frame_filled_ = 0;
    std::vector<CollectedFrame> group_frames_;

    std::deque<CollectedFrame> ready_;
};

}  // namespace agent_webm

#endif
