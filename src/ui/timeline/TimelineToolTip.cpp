#include "TimelineToolTip.h"

#include "TimelineModel.h"
#include "TimelineRange.h"
#include "common/CompositionStyle.h"
#include "compaction/TokenEstimate.h"

#include <QPalette>

#include <QLocale>
#include <QStringList>

#include <cmath>

using namespace Qt::StringLiterals;

namespace wl {

namespace {
constexpr std::array<TimelineSeries, 4> kSeries{TimelineSeries::History, TimelineSeries::Sent,
                                                TimelineSeries::Reported, TimelineSeries::WhatIf};

QString percentText(double percent)
{
    return QLocale().toString(percent, 'f', 1) + u'%';
}

QString tokensText(qint64 tokens)
{
    return TimelineToolTip::tr("%1 tokens").arg(QLocale().toString(tokens));
}

// "52,200 tokens (52.2% of the 100,000-token window)"; the percent only where there is a window.
QString amount(const TimelineModel &model, TimelineSeries series, int row)
{
    const qint64 tokens = model.tokens(series, row);
    const qint64 window = model.referenceWindow();
    if (tokens < 0) {
        const double percent = model.value(series, row, TimelineScale::Percent);
        return std::isnan(percent) ? QString() : percentText(percent);
    }
    if (window <= 0)
        return tokensText(tokens);
    return TimelineToolTip::tr("%1 (%2 of the %3-token window)")
        .arg(tokensText(tokens), percentText(model.value(series, row, TimelineScale::Percent)), QLocale().toString(window));
}

Tier tierAt(const TimelineModel &model, int row, bool whatIf)
{
    if (whatIf)
        return row < model.whatIf().size() ? model.whatIf().at(row).tier : Tier::None;
    return model.recorded().at(row).tier;
}

int requestOf(const TimelineModel &model, int row)
{
    return row >= 0 && row < model.recorded().size() ? model.recorded().at(row).requestIndex : row;
}
} // namespace

QString TimelineToolTip::seriesName(TimelineSeries series)
{
    switch (series) {
    case TimelineSeries::History: return tr("Full history, uncompacted");
    case TimelineSeries::Sent: return tr("Sent to model");
    case TimelineSeries::Reported: return tr("Provider-reported");
    case TimelineSeries::WhatIf: return tr("What-if");
    }
    return {};
}

QString TimelineToolTip::axisAmount(double value, TimelineScale scale)
{
    if (scale == TimelineScale::Percent)
        return percentText(value);
    return tokensText(std::llround(value * kTimelineTokensPerUnit));
}

QString TimelineToolTip::point(const TimelineModel &model, int row, TimelineSeries series)
{
    if (row < 0 || row >= model.rowCount())
        return {};
    const TimelineRow &r = model.recorded().at(row);
    QStringList lines;
    lines << tr("Request %1 · %2").arg(r.requestIndex).arg(seriesName(series));
    const QString value = amount(model, series, row);
    lines << (value.isEmpty() ? tr("No value at this request") : value);
    if (series == TimelineSeries::WhatIf && model.whatIfAtOtherWindow())
        lines << tr("The what-if runs at a %1-token window; the recorded session had %2.")
                     .arg(QLocale().toString(model.whatIfWindow()), QLocale().toString(model.recordedWindow()));

    const bool whatIf = series == TimelineSeries::WhatIf;
    if (whatIf && row < model.whatIf().size() && model.whatIf().at(row).lostFacts > 0)
        lines << tr("%n fact(s) this request used were lost from its view under this policy", nullptr,
                    model.whatIf().at(row).lostFacts);
    const Tier tier = tierAt(model, row, whatIf);
    lines << (tier == Tier::None ? tr("No compaction before this request")
                                 : tr("Tier: %1 (compacted before this request)").arg(tierDisplayName(tier)));

    // What changed: the compaction's own account, then the line's step from the request before.
    if (whatIf && tier != Tier::None) {
        const WhatIfRow &w = model.whatIf().at(row);
        lines << tr("What-if compaction: %1 → %2 view tokens, %3 summarised, %4 offloaded")
                     .arg(QLocale().toString(w.viewTokensBefore), QLocale().toString(w.viewTokensAfter))
                     .arg(w.summarized)
                     .arg(w.offloaded);
    } else if (!whatIf && !r.recordSummary.isEmpty() && series != TimelineSeries::History) {
        lines << r.recordSummary;
    }
    if (row > 0) {
        const qint64 now = model.tokens(series, row);
        const qint64 before = model.tokens(series, row - 1);
        if (now >= 0 && before >= 0) {
            const qint64 delta = now - before;
            const QString signedDelta = (delta > 0 ? u"+"_s : QString()) + QLocale().toString(delta);
            lines << tr("%1 tokens since request %2").arg(signedDelta).arg(requestOf(model, row - 1));
        }
    }
    if (series == TimelineSeries::History && !r.sourceCompaction.isEmpty())
        lines << r.sourceCompaction;

    QStringList others;
    for (TimelineSeries other : kSeries) {
        if (other == series)
            continue;
        const QString text = amount(model, other, row);
        if (!text.isEmpty())
            others << tr("%1: %2").arg(seriesName(other), text);
    }
    if (!others.isEmpty())
        lines << QString() << others;
    return lines.join(u'\n');
}

QString TimelineToolTip::composition(const TimelineModel &model, int row, int part)
{
    if (row < 0 || row >= model.rowCount())
        return {};
    const ViewComposition c = model.composition(row);
    if (c.isEmpty())
        return {};
    const bool whatIf = model.compositionIsWhatIf();
    QStringList lines;
    lines << (whatIf ? tr("Request %1 · what-if composition").arg(requestOf(model, row))
                     : tr("Request %1 · composition as sent").arg(requestOf(model, row)));
    if (part >= 0 && part < ViewComposition::kPartCount) {
        const ViewComposition::Part p = ViewComposition::kParts[size_t(part)];
        lines << (c.window() > 0 ? tr("%1: %2 (%3 of the window)").arg(compositionPartName(p), tokensText(c.tokens(p)),
                                                                      percentText(c.share(p) * 100.0))
                                 : tr("%1: %2").arg(compositionPartName(p), tokensText(c.tokens(p))));
    }
    lines << (c.window() > 0 ? tr("Used: %1 (%2 of the window)").arg(tokensText(c.used()), percentText(c.ratio() * 100.0))
                             : tr("Used: %1").arg(tokensText(c.used())));
    const Tier tier = tierAt(model, row, whatIf);
    lines << (tier == Tier::None ? tr("No compaction before this request")
                                 : tr("Tier: %1 (compacted before this request)").arg(tierDisplayName(tier)));
    lines << QString() << compositionFigures(c, QPalette(), false);
    return lines.join(u'\n');
}

QString TimelineToolTip::compaction(const TimelineModel &model, int row, bool whatIf)
{
    if (row < 0 || row >= model.rowCount())
        return {};
    const Tier tier = tierAt(model, row, whatIf);
    const TimelineRow &r = model.recorded().at(row);
    QStringList lines;
    if (whatIf) {
        lines << tr("What-if: %1 compaction before request %2").arg(tierDisplayName(tier)).arg(r.requestIndex);
        const WhatIfRow &w = model.whatIf().at(row);
        lines << tr("View: %1 → %2 tokens, %3 messages summarised, %4 results offloaded")
                     .arg(QLocale().toString(w.viewTokensBefore), QLocale().toString(w.viewTokensAfter))
                     .arg(w.summarized)
                     .arg(w.offloaded);
        lines << tr("Would send: %1").arg(amount(model, TimelineSeries::WhatIf, row));
        lines << tr("Recorded: sent %1").arg(amount(model, TimelineSeries::Sent, row));
    } else {
        lines << tr("%1 compaction before request %2").arg(tierDisplayName(tier)).arg(r.requestIndex);
        if (!r.recordSummary.isEmpty())
            lines << r.recordSummary;
        lines << tr("Sent: %1").arg(amount(model, TimelineSeries::Sent, row));
        const QString history = amount(model, TimelineSeries::History, row);
        if (!history.isEmpty())
            lines << tr("Full history: %1").arg(history);
    }
    return lines.join(u'\n');
}

QString TimelineToolTip::sourceCompaction(const TimelineModel &model, int row)
{
    if (row < 0 || row >= model.rowCount())
        return {};
    const TimelineRow &r = model.recorded().at(row);
    QStringList lines;
    lines << tr("Request %1").arg(r.requestIndex);
    if (!r.sourceCompaction.isEmpty())
        lines << r.sourceCompaction;
    const QString history = amount(model, TimelineSeries::History, row);
    if (!history.isEmpty())
        lines << tr("Full history: %1").arg(history);
    const QString reported = amount(model, TimelineSeries::Reported, row);
    if (!reported.isEmpty())
        lines << tr("Provider-reported: %1").arg(reported);
    return lines.join(u'\n');
}

QString TimelineToolTip::clip(const TimelineModel &model, const TimelineClip &clip, double top, TimelineScale scale)
{
    QStringList lines;
    const int first = requestOf(model, clip.firstRow);
    const int last = requestOf(model, clip.lastRow);
    lines << (first == last ? tr("%1 runs above the chart at request %2").arg(seriesName(clip.series)).arg(first)
                            : tr("%1 runs above the chart from request %2 to %3").arg(seriesName(clip.series)).arg(first).arg(last));
    lines << tr("Highest: %1 at request %2, %3 above the top (%4)")
                 .arg(axisAmount(clip.peak, scale))
                 .arg(requestOf(model, clip.peakRow))
                 .arg(axisAmount(clip.peak - top, scale), axisAmount(top, scale));
    const QString there = point(model, clip.peakRow, clip.series);
    if (!there.isEmpty())
        lines << QString() << there;
    return lines.join(u'\n');
}

QString TimelineToolTip::clipNote(const TimelineModel &model, const QList<TimelineClip> &clips, double top, TimelineScale scale)
{
    QStringList parts;
    for (TimelineSeries series : kSeries) {
        const TimelineClip *peak = nullptr;
        for (const TimelineClip &c : clips)
            if (c.series == series && (!peak || c.peak > peak->peak))
                peak = &c;
        if (!peak)
            continue;
        parts << tr("%1 up to %2 at request %3 (%4 above the top)")
                     .arg(seriesName(series), axisAmount(peak->peak, scale))
                     .arg(requestOf(model, peak->peakRow))
                     .arg(axisAmount(peak->peak - top, scale));
    }
    if (parts.isEmpty())
        return {};
    return tr("Clipped at %1: %2").arg(axisAmount(top, scale), parts.join(u"; "_s));
}

QString TimelineToolTip::threshold(const TimelineModel &model, Tier tier)
{
    const TimelineThresholds &th = model.thresholds();
    const double level = tier == Tier::Warn ? th.warn : tier == Tier::Soft ? th.soft : tier == Tier::Full ? th.full : th.emergency;
    const qint64 window = model.referenceWindow();
    if (window <= 0)
        return tr("%1 threshold: %2 of the window").arg(tierDisplayName(tier), percentText(level * 100.0));
    return tr("%1 threshold: %2 of the %3-token window (%4)")
        .arg(tierDisplayName(tier), percentText(level * 100.0), QLocale().toString(window),
             tokensText(std::llround(level * double(window))));
}

QString TimelineToolTip::axisTitle(const TimelineModel &model, TimelineScale chosen)
{
    if (model.effectiveScale(chosen) == TimelineScale::Tokens)
        return tr("Tokens");
    const qint64 window = model.referenceWindow();
    return window > 0 ? tr("% of %1").arg(QLocale().toString(window)) : tr("Context used (%)");
}

QString TimelineToolTip::windowNote(const TimelineModel &model, TimelineScale chosen)
{
    const qint64 window = model.referenceWindow();
    const QString windowText = QLocale().toString(window);
    const QString recordedText = QLocale().toString(model.recordedWindow());
    const bool otherWindow = model.whatIfAtOtherWindow();
    if (model.effectiveScale(chosen) == TimelineScale::Tokens) {
        if (chosen == TimelineScale::Percent)
            return tr("No context window is set: every line is in tokens.");
        if (otherWindow)
            return tr("In tokens; the thresholds are those of the what-if's %1-token window (the session's is %2).")
                .arg(windowText, recordedText);
        return window > 0 ? tr("In tokens; the thresholds are those of the %1-token window.").arg(windowText) : QString();
    }
    if (window <= 0)
        return {};
    if (otherWindow)
        return tr("Every line as a share of the what-if's %1-token window; the recorded lines are rescaled from the session's %2.")
            .arg(windowText, recordedText);
    return tr("Every line as a share of the %1-token window.").arg(windowText);
}

} // namespace wl
