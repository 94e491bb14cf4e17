#pragma once

#include "compaction/Tier.h"
#include "compaction/ViewComposition.h"

#include <QWidget>

namespace wl {

// The status bar's context gauge: a small bar filled to the next request's estimated share of
// the context window, coloured by the tier that share falls in (TierStyle), with the percentage.
class ContextGauge : public QWidget
{
    Q_OBJECT
public:
    explicit ContextGauge(QWidget *parent = nullptr);

    // What the gauge measures: the next request of the agent running on the session, or (no agent
    // runs on it: an import, the demo) the last request the session recorded.
    enum class Source { NextRequest, LastRecorded };
    // Shows `composition` (what fills the request's window, by category): its used() tokens and
    // ratio() (which may exceed 1: the bar is then full) against its window, the tooltip its parts.
    // The gauge computes no total of its own.
    void setComposition(const ViewComposition &composition, Tier tier, Source source);
    // Nothing to measure: no session open.
    void clear();
    const ViewComposition &composition() const { return m_composition; }
    qint64 window() const { return m_window; }
    Source source() const { return m_source; }
    double ratio() const { return m_ratio; }
    Tier tier() const { return m_tier; }
    QString text() const;

    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    double m_ratio = 0;
    Tier m_tier = Tier::None;
    qint64 m_tokens = 0;
    qint64 m_window = 0;
    Source m_source = Source::NextRequest;
    ViewComposition m_composition;
};

} // namespace wl
