#pragma once

#include "compaction/ViewComposition.h"

#include <QList>
#include <QRectF>
#include <QWidget>

class QLabel;

namespace wl {

// One request's composition as a horizontal bar (each part's share of the window, left to
// right in the stack's order) above a legend with each part's tokens and percent.
class CompositionBar : public QWidget
{
    Q_OBJECT
public:
    explicit CompositionBar(QWidget *parent = nullptr);

    void setComposition(const ViewComposition &composition);
    const ViewComposition &composition() const { return m_composition; }
    // The legend as plain text (one line per part shown, then the window).
    QString legendText() const;
    // Where each part is drawn in the bar's strip, in widget coordinates (empty for a part of 0).
    QRectF segmentRect(ViewComposition::Part part) const;

protected:
    void changeEvent(QEvent *event) override;

private:
    class Strip;
    void updateLegend();

    ViewComposition m_composition;
    Strip *m_strip;
    QLabel *m_legend;
};

} // namespace wl
