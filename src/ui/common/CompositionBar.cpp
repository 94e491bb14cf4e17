#include "CompositionBar.h"

#include "CompositionStyle.h"

#include <QEvent>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QVBoxLayout>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace wl {

// The bar itself: segments scaled to the larger of the window and what is used.
class CompositionBar::Strip : public QWidget
{
public:
    explicit Strip(CompositionBar *bar)
        : QWidget(bar)
        , m_bar(bar)
    {
        setMinimumHeight(fontMetrics().height() + 4);
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    }

    QSize sizeHint() const override { return {200, fontMetrics().height() + 4}; }

    QRectF segment(ViewComposition::Part part) const
    {
        const ViewComposition &c = m_bar->m_composition;
        const qint64 total = c.total();
        if (total <= 0 || c.tokens(part) <= 0)
            return {};
        const QRectF area = QRectF(rect()).adjusted(1, 1, -1, -1);
        qint64 before = 0;
        for (ViewComposition::Part p : ViewComposition::kParts) {
            if (p == part)
                break;
            before += c.tokens(p);
        }
        const double x0 = area.left() + area.width() * double(before) / double(total);
        const double x1 = area.left() + area.width() * double(before + c.tokens(part)) / double(total);
        return QRectF(QPointF(x0, area.top()), QPointF(x1, area.bottom()));
    }

protected:
    void paintEvent(QPaintEvent *) override
    {
        QPainter p(this);
        const ViewComposition &c = m_bar->m_composition;
        p.setPen(Qt::NoPen);
        for (ViewComposition::Part part : ViewComposition::kParts) {
            const QRectF r = segment(part);
            if (!r.isEmpty())
                p.fillRect(r, compositionColor(part, palette()));
        }
        // Where the window ends, when the request runs over it.
        if (c.overflow() > 0 && c.total() > 0) {
            const QRectF area = QRectF(rect()).adjusted(1, 1, -1, -1);
            const double x = area.left() + area.width() * double(c.window()) / double(c.total());
            p.setPen(QPen(palette().color(QPalette::Text), 2));
            p.drawLine(QPointF(x, rect().top()), QPointF(x, rect().bottom()));
        }
        p.setPen(palette().color(QPalette::Mid));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5));
    }

private:
    CompositionBar *m_bar;
};

CompositionBar::CompositionBar(QWidget *parent)
    : QWidget(parent)
    , m_strip(new Strip(this))
    , m_legend(new QLabel(this))
{
    setObjectName(u"CompositionBar"_s);
    m_legend->setObjectName(u"CompositionLegend"_s);
    m_legend->setTextFormat(Qt::RichText);
    m_legend->setWordWrap(true);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_strip);
    layout->addWidget(m_legend);
    setAccessibleName(tr("Composition of the request"));
    updateLegend();
}

void CompositionBar::setComposition(const ViewComposition &composition)
{
    m_composition = composition;
    updateLegend();
    m_strip->update();
}

QRectF CompositionBar::segmentRect(ViewComposition::Part part) const
{
    const QRectF r = m_strip->segment(part);
    return r.isEmpty() ? r : r.translated(m_strip->pos());
}

QString CompositionBar::legendText() const
{
    return m_composition.isEmpty() ? QString() : compositionFigures(m_composition, palette(), false);
}

void CompositionBar::updateLegend()
{
    if (m_composition.isEmpty()) {
        m_legend->setText(tr("No request selected"));
        setToolTip({});
        return;
    }
    // The legend in the stack's order, left to right, wrapping as the dock narrows.
    const QLocale locale;
    QStringList items;
    for (ViewComposition::Part part : ViewComposition::kParts) {
        const qint64 tokens = m_composition.tokens(part);
        if (tokens <= 0)
            continue;
        const QString figures = m_composition.window() > 0
            ? tr("%1 %2 (%3%)").arg(compositionPartName(part), locale.toString(tokens),
                                    locale.toString(m_composition.share(part) * 100.0, 'f', 1))
            : tr("%1 %2").arg(compositionPartName(part), locale.toString(tokens));
        items.append(u"<span style=\"color:%1\">\u25a0</span>&nbsp;%2"_s.arg(compositionColor(part, palette()).name(),
                                                                            figures.toHtmlEscaped().replace(u' ', u"&nbsp;"_s)));
    }
    QString text = items.join(u" &nbsp; "_s);
    if (m_composition.overflow() > 0)
        text += u"<br>"_s + tr("Over the %1-token window by %2 tokens")
                                 .arg(locale.toString(m_composition.window()), locale.toString(m_composition.overflow()))
                                 .toHtmlEscaped();
    m_legend->setText(text);
    setToolTip(compositionFigures(m_composition, palette(), true));
    setAccessibleDescription(legendText());
}

void CompositionBar::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        updateLegend();
}

} // namespace wl
