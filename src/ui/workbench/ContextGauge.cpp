#include "ContextGauge.h"

#include "TierStyle.h"
#include "common/CompositionStyle.h"

#include <QLocale>
#include <QPainter>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace wl {

ContextGauge::ContextGauge(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(u"ContextGauge"_s);
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    clear();
}

void ContextGauge::clear()
{
    m_composition = {};
    m_ratio = 0;
    m_tier = Tier::None;
    m_tokens = 0;
    m_window = 0;
    m_source = Source::NextRequest;
    const QString headline = tr("No session open");
    setToolTip(headline);
    setAccessibleDescription(headline);
    setAccessibleName(tr("Context gauge"));
    update();
}

void ContextGauge::setComposition(const ViewComposition &composition, Tier tier, Source source)
{
    if (composition.window() <= 0) {
        clear();
        return;
    }
    m_composition = composition;
    m_ratio = std::max(0.0, composition.ratio());
    m_tier = tier;
    m_tokens = composition.used();
    m_window = composition.window();
    m_source = source;
    const QLocale locale;
    const QString text = source == Source::NextRequest ? tr("Next request: about %1 of the session's %2-token window (%3%), tier %4")
                                                       : tr("Last recorded request: about %1 of the session's %2-token window (%3%), tier %4");
    const QString headline = text.arg(locale.toString(m_tokens), locale.toString(m_window))
                                 .arg(qRound(m_ratio * 100))
                                 .arg(tierDisplayName(tier));
    setToolTip(u"<p>%1</p><p>%2</p>"_s.arg(headline.toHtmlEscaped(), compositionFigures(composition, palette(), true)));
    setAccessibleDescription(headline + u'\n' + compositionFigures(composition, palette(), false));
    setAccessibleName(tr("Context gauge"));
    update();
}

QString ContextGauge::text() const
{
    return m_window > 0 ? tr("%1%").arg(qRound(m_ratio * 100)) : tr("\u2013");
}

QSize ContextGauge::sizeHint() const
{
    return {fontMetrics().horizontalAdvance(u"100%"_s) + 80, fontMetrics().height() + 4};
}

void ContextGauge::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QRectF frame = QRectF(rect()).adjusted(0.5, 2.5, -0.5, -2.5);
    p.setPen(palette().color(QPalette::Mid));
    p.setBrush(palette().color(QPalette::Base));
    p.drawRoundedRect(frame, 3, 3);
    const double fill = std::min(1.0, m_ratio);
    if (fill > 0) {
        QRectF bar = frame.adjusted(1, 1, -1, -1);
        bar.setWidth(bar.width() * fill);
        p.setPen(Qt::NoPen);
        p.setBrush(tierColor(m_tier));
        p.drawRoundedRect(bar, 2, 2);
    }
    p.setPen(palette().color(QPalette::Text));
    p.drawText(frame, Qt::AlignCenter, text());
}

} // namespace wl
