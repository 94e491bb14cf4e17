#pragma once

#include "ViewItem.h"

#include <QMetaType>
#include <QtGlobal>

#include <array>

namespace wl {

class ContextView;
class TokenEstimate;

// What fills the window of one request, by category, in tokens of the preflight's own estimate
// (docs/COMPACTION.md section 2): the parts of the view, the tool schemas, the reserved output and
// the free space left. The parts sum exactly to the window while the request fits in it; a request
// over the window has no free space and overflow() says by how much it is over.
//
// The view's bytes are divided by four once, as the estimate divides them: each part gets the
// tokens its bytes add to the running sum (floor(bytes so far / 4) minus the same before it), so
// the view's parts sum to TokenEstimate::viewTokens() exactly.
class ViewComposition
{
public:
    // In the order the stack is drawn, bottom up (the view's order, then what is not the view).
    enum class Part : quint8 {
        SystemPrompt, // the system prompt (with an import's unrecorded per-request overhead)
        ToolSchemas,  // the tool schemas, when the policy counts them
        Checkpoint,   // the newest checkpoint: anchors and summary
        Pinned,       // pinned messages and notes (0 until the view has pins)
        History,      // history messages verbatim (and pair-repair stubs)
        Offloaded,    // tool results shown as offload placeholders
        Reserved,     // the reserved output
        Free,         // what is left of the window
    };
    static constexpr int kPartCount = 8;
    static constexpr std::array<Part, kPartCount> kParts{Part::SystemPrompt, Part::ToolSchemas, Part::Checkpoint,
                                                         Part::Pinned,       Part::History,     Part::Offloaded,
                                                         Part::Reserved,     Part::Free};

    // The bytes of a view by the part each item belongs to, gathered in view order.
    struct ViewBytes
    {
        std::array<qint64, kPartCount> bytes{};
        void add(Part part, qint64 itemBytes) { bytes[size_t(part)] += itemBytes; }
        qint64 total() const;
    };

    ViewComposition() = default;

    // The one place that says which part a view item is (pins: their item kind maps to Pinned here).
    static Part partOf(const ViewItem &item);
    static ViewBytes bytesOf(const ContextView &view);

    // `view` by part, with what `estimate` adds to it (schemas, overhead, reserved output, the
    // window). The estimate's own view bytes are not read: the parts are.
    static ViewComposition of(const ViewBytes &view, const TokenEstimate &estimate);
    static ViewComposition of(const ContextView &view, const TokenEstimate &estimate);

    qint64 tokens(Part part) const { return m_tokens[size_t(part)]; }
    // The window the composition fills (0: none, then there is no free space).
    qint64 window() const { return m_window; }
    // Every part but the free space: what the request's estimate counts.
    qint64 used() const;
    // Every part: the window, or used() when over it.
    qint64 total() const { return used() + tokens(Part::Free); }
    // Tokens beyond the window (0 when the request fits or there is no window).
    qint64 overflow() const;
    // A part's share of the window (0 without one).
    double share(Part part) const;
    bool isEmpty() const { return m_window == 0 && used() == 0; }

    friend bool operator==(const ViewComposition &, const ViewComposition &) = default;

private:
    std::array<qint64, kPartCount> m_tokens{};
    qint64 m_window = 0;
};

} // namespace wl

Q_DECLARE_METATYPE(wl::ViewComposition)
