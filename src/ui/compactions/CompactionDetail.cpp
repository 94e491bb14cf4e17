#include "CompactionDetail.h"

#include "compaction/Checkpoint.h"
#include "compaction/CompactionRecord.h"

#include <QCoreApplication>
#include <QLocale>
#include <QStringList>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

QString changeLabel(AnchorChange change)
{
    switch (change) {
    case AnchorChange::New: return CompactionDetail::tr("new");
    case AnchorChange::Updated: return CompactionDetail::tr("updated");
    case AnchorChange::Unchanged: return CompactionDetail::tr("unchanged");
    case AnchorChange::Kept: return CompactionDetail::tr("kept");
    }
    return {};
}

QString heading(const QString &text)
{
    return u"<h4 style=\"margin-bottom: 2px\">"_s + text.toHtmlEscaped() + u"</h4>"_s;
}

QString paragraph(const QString &text)
{
    return u"<p style=\"margin-top: 0\">"_s + text.toHtmlEscaped() + u"</p>"_s;
}

} // namespace

QString CompactionDetail::summarised(const CompactionRecord &r, const Checkpoint *checkpoint)
{
    if (r.summarized <= 0 && !checkpoint)
        return paragraph(tr("Nothing: this compaction wrote no summary."));
    if (r.summarized <= 0) // a checkpoint whose record does not count what it replaced (an import's)
        return paragraph(tr("The history up to the checkpoint below, which replaces it."));
    QString text = checkpoint && checkpoint->coversFromMessageId > 0
        ? tr("%1 messages, history #%2 to #%3, replaced by the checkpoint below.")
              .arg(r.summarized).arg(checkpoint->coversFromMessageId).arg(checkpoint->coversUpToMessageId)
        : tr("%1 messages, replaced by the checkpoint below.").arg(r.summarized);
    if (r.preservedTail > 0)
        text += u' ' + tr("The last %1 messages were kept as they were.").arg(r.preservedTail);
    return paragraph(text);
}

QString CompactionDetail::offloaded(const CompactionRecord &r)
{
    if (r.offloaded.isEmpty())
        return paragraph(tr("Nothing."));
    const QLocale locale;
    QString html = u"<ul style=\"margin-top: 0\">"_s;
    for (const OffloadEntry &e : r.offloaded) {
        const QString line = e.gate == OffloadEntry::kCutGate
            ? tr("message cut to its head and end; the whole in %1, %2 lines, %3 bytes")
                  .arg(e.relativePath, locale.toString(e.lines), locale.toString(e.bytes))
            : tr("%1 (call %2): %3, %4 lines, %5 bytes")
                  .arg(e.toolName.isEmpty() ? tr("tool result") : e.toolName, e.callId, e.relativePath,
                       locale.toString(e.lines), locale.toString(e.bytes));
        html += u"<li>"_s + line.toHtmlEscaped() + u"</li>"_s;
    }
    return html + u"</ul>"_s;
}

QString CompactionDetail::anchors(const CompactionRecord &r)
{
    if (r.summarizerStep == SummarizerStep::None)
        return paragraph(tr("None: without a summary the anchors stay as they were."));
    QStringList same;
    QString html;
    for (AnchorKind kind : kAllAnchorKinds) {
        const AnchorChange change = r.anchorChanges[size_t(kind)];
        if (change != AnchorChange::New && change != AnchorChange::Updated) {
            same.append(tr("%1 (%2)").arg(anchorHeader(kind), changeLabel(change)));
            continue;
        }
        html += u"<li><b>"_s + tr("%1 (%2):").arg(anchorHeader(kind), changeLabel(change)).toHtmlEscaped() + u"</b> "_s
            + r.anchors.value(kind).toHtmlEscaped() + u"</li>"_s;
    }
    QString out = html.isEmpty() ? paragraph(tr("None changed.")) : u"<ul style=\"margin-top: 0\">"_s + html + u"</ul>"_s;
    if (!same.isEmpty())
        out += paragraph(tr("As before: %1.").arg(same.join(u", "_s)));
    return out;
}

QString CompactionDetail::html(const CompactionRecord &r, const Checkpoint *checkpoint)
{
    const QLocale locale;
    QString html = u"<h3 style=\"margin-top: 0\">"_s
        + tr("%1 compaction before request %2").arg(tierDisplayName(r.tier)).arg(r.requestIndex).toHtmlEscaped() + u"</h3>"_s;
    QString numbers = tr("%1 → %2 tokens, %3 → %4 messages, %5 ms.")
                          .arg(locale.toString(r.tokensBefore), locale.toString(r.tokensAfter))
                          .arg(r.msgsBefore).arg(r.msgsAfter).arg(locale.toString(r.durationMs));
    if (r.reason.contextWindow > 0)
        numbers += u' ' + (r.reason.forced
            ? tr("Forced at %1 % of the %2-token window.")
            : tr("Chosen at %1 % of the %2-token window."))
                              .arg(locale.toString(r.reason.ratio * 100.0, 'f', 1), locale.toString(r.reason.contextWindow));
    // Summarise is what every record before strategies did; the others are named.
    if (r.strategy != CompactionStrategy::Summarise)
        numbers += u' ' + tr("Strategy: %1.").arg(strategyDisplayName(r.strategy));
    html += paragraph(numbers);
    if (!r.error.isEmpty())
        html += u"<p style=\"margin-top: 0; color: #c53030\">"_s + tr("Error: %1").arg(r.error).toHtmlEscaped() + u"</p>"_s;

    html += heading(tr("Summarised")) + summarised(r, checkpoint);
    html += heading(tr("Offloaded")) + offloaded(r);
    html += heading(tr("Anchors changed")) + anchors(r);

    QString text = checkpoint ? checkpoint->text : QString();
    // A summary that was written but not committed (refused as not smaller, rejected in review)
    // made no checkpoint: its text is not shown as one.
    if (text.isEmpty() && r.summarized > 0)
        text = checkpointMessageText(r.anchors, r.summaryText, r.offloaded);
    html += heading(checkpoint && checkpoint->version > 1
                        ? tr("Checkpoint text (version %1, edited; earlier versions are kept)").arg(checkpoint->version)
                        : tr("Checkpoint text"));
    html += text.isEmpty() ? paragraph(tr("This compaction wrote no checkpoint."))
                           : u"<pre style=\"white-space: pre-wrap; margin-top: 0\">"_s + text.toHtmlEscaped() + u"</pre>"_s;
    return html;
}

} // namespace wl
