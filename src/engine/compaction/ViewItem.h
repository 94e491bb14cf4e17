#pragma once

#include <QtGlobal>

namespace wl {

// What one message of a view stands for in the session's history (the UI's Context dock shows it).
struct ViewItem
{
    enum class Kind : quint8 {
        System,      // the system prompt
        Checkpoint,  // the newest checkpoint, standing for history ids coversFrom..coversTo
        Original,    // a history message, verbatim
        Placeholder, // a history tool result shown as its offload placeholder
        Stub,        // an inserted "[tool result unavailable ...]" for call `callIndex` of the source message
        Pinned,      // the pinned section (docs/COMPACTION.md section 12), right after the system prompt
    };

    Kind kind = Kind::Original;
    bool isResult = false;   // a tool result (including stubs)
    bool hasCalls = false;   // an assistant message with tool calls
    qint32 sourceIndex = -1; // index in the history list; for a stub, the calling message
    qint32 callIndex = -1;   // stubs only
    qint64 sourceMessageId = 0;
    qint64 coversFrom = 0;   // history ids this item stands for (checkpoints: a range)
    qint64 coversTo = 0;
    qint64 bytes = 0;        // token-estimate bytes of the message as the view shows it

    friend bool operator==(const ViewItem &, const ViewItem &) = default;
};

} // namespace wl
