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
// The view's bytes are divided by four once, as the estimate divides them; with the calibration
// (what an import's provider counted beyond that, a part of its own) the parts sum to
// TokenEstimate::viewTokens() exactly. The parts of one item each (the system prompt, the
// checkpoint, the pinned section) take exactly that item's tokens, as the Context dock's list and
// the Pins list count it; the parts of many items (history verbatim, offload placeholders) share
// the rest in view order (floor(bytes so far / 4) minus the same before them).
//
// This is the one computation of a request's totals (issue 31, section 3): the gauge, the Context
// dock's headline, bar and list, the timeline, the status bar and `waterline-cli show` read
// used(), sent() and ratio() of a composition, never a sum of their own.
class ViewComposition
{
public:
    // In the order the stack is drawn, bottom up (the view's order, then what is not the view).
    enum class Part : quint8 {
        SystemPrompt, // the system prompt, as the view carries it
        ToolSchemas,  // the tool schemas, when the policy counts them
        Overhead,     // an import's estimated fixed overhead (what the transcript did not store)
        Checkpoint,   // the newest checkpoint: anchors and summary
        Pinned,       // pinned messages and notes (0 until the view has pins)
        History,      // history messages verbatim (and pair-repair stubs)
        Offloaded,    // tool results shown as offload placeholders
        Calibration,  // what the provider counts beyond the view's bytes / 4 (an import's calibration, TokenEstimate)
        Reserved,     // the reserved output
        Free,         // what is left of the window
    };
    static constexpr int kPartCount = 10;
    static constexpr std::array<Part, kPartCount> kParts{Part::SystemPrompt, Part::ToolSchemas, Part::Overhead,
                                                         Part::Checkpoint,   Part::Pinned,      Part::History,
                                                         Part::Offloaded,    Part::Calibration, Part::Reserved,
                                                         Part::Free};

    // The bytes of a view by the part each item belongs to, gathered in view order, and how many
    // history messages it holds.
    struct ViewBytes
    {
        std::array<qint64, kPartCount> bytes{};
        // History messages the view shows (verbatim or as offload placeholders; not what a
        // checkpoint stands for), and how many the history held when it was sent.
        qint64 viewMessages = 0;
        qint64 historyMessages = 0;
        void add(Part part, qint64 itemBytes) { bytes[size_t(part)] += itemBytes; }
        qint64 total() const;
    };

    ViewComposition() = default;

    // A part's name in machine-readable output (`waterline-cli show --json`): "system_prompt",
    // "tool_schemas", "overhead", "checkpoint", "pinned", "history", "offloaded", "calibration", "reserved",
    // "free".
    static const char *partKey(Part part);

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
    // Every part but the free space: what the request's estimate counts, the reserved output
    // included (the total the gauge shows).
    qint64 used() const;
    // What went to the provider: used() less the reserved output.
    qint64 sent() const { return used() - tokens(Part::Reserved); }
    // The view's parts (the system prompt, checkpoint, pins, history and placeholders).
    qint64 viewTokens() const { return used() - besidesView(); }
    // What the request counts besides its view: the tool schemas (when counted), an import's
    // overhead and the reserved output.
    qint64 besidesView() const { return tokens(Part::ToolSchemas) + tokens(Part::Overhead) + tokens(Part::Reserved); }
    // used() as a share of the window (TokenEstimate::ratioFor; 0 without a window): the gauge's.
    double ratio() const;
    // The history messages the view held, and the history's (ViewBytes).
    qint64 viewMessages() const { return m_viewMessages; }
    qint64 historyMessages() const { return m_historyMessages; }
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
    qint64 m_viewMessages = 0;
    qint64 m_historyMessages = 0;
};

} // namespace wl

Q_DECLARE_METATYPE(wl::ViewComposition)
