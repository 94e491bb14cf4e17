#include "common/AppIcons.h"

#include <QApplication>
#include <QIconEngine>
#include <QPainter>
#include <QPixmap>
#include <QStyle>
#include <QStyleOption>
#include <QSvgRenderer>

using namespace Qt::StringLiterals;

namespace wl::AppIcons {

namespace {

struct Entry
{
    Icon icon;
    const char16_t *themeName;   // empty: no theme icon says this
    const char16_t *file;        // in :/icons/actions
};

constexpr Entry kEntries[] = {
    {Icon::NewSession, u"document-new", u"document-new"},
    {Icon::Import, u"document-import", u"document-import"},
    {Icon::Export, u"document-export", u"document-export"},
    {Icon::Settings, u"preferences-system", u"preferences-system"},
    {Icon::Run, u"media-playback-start", u"media-playback-start"},
    {Icon::Stop, u"media-playback-stop", u"media-playback-stop"},
    {Icon::Demo, u"", u"waterline-demo"},
    {Icon::SessionsDock, u"view-list-details", u"view-list-details"},
    {Icon::TimelineDock, u"office-chart-line", u"office-chart-line"},
    {Icon::ThresholdsDock, u"adjustlevels", u"adjustlevels"},
    {Icon::AnchorsDock, u"anchor", u"anchor"},
    {Icon::OffloadsDock, u"document-multiple", u"document-multiple"},
    {Icon::ContextDock, u"view-visible", u"view-visible"},
    {Icon::CompactionsDock, u"view-history", u"view-history"},
};

// Draws a bundled SVG at any size with Qt SVG itself, so the icons need no image or icon-engine plugin
// (Debian ships those in qt6-svg-plugins, which a minimal install lacks). Disabled is the style's
// dimmed version of the drawing.
class SvgIconEngine : public QIconEngine
{
public:
    explicit SvgIconEngine(const QString &path)
        : m_path(path)
    {
    }

    void paint(QPainter *painter, const QRect &rect, QIcon::Mode mode, QIcon::State state) override
    {
        painter->drawPixmap(rect, pixmap(rect.size() * painter->device()->devicePixelRatioF(), mode, state));
    }

    QPixmap pixmap(const QSize &size, QIcon::Mode mode, QIcon::State state) override
    {
        return scaledPixmap(size, mode, state, 1.0);
    }

    QPixmap scaledPixmap(const QSize &size, QIcon::Mode mode, QIcon::State, qreal scale) override
    {
        const QSize pixels = size * scale;
        if (pixels.isEmpty())
            return {};
        QImage image(pixels, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        QSvgRenderer renderer(m_path);
        if (!renderer.isValid())
            return {};
        QPainter painter(&image);
        renderer.render(&painter, QRectF(QPointF(0, 0), QSizeF(pixels)));
        painter.end();
        QPixmap out = QPixmap::fromImage(image);
        out.setDevicePixelRatio(scale);
        if (mode == QIcon::Disabled && qApp) {
            QStyleOption option;
            option.palette = QApplication::palette();
            out = QApplication::style()->generatedIconPixmap(QIcon::Disabled, out, &option);
        }
        return out;
    }

    QSize actualSize(const QSize &size, QIcon::Mode, QIcon::State) override
    {
        return size;
    }

    QString key() const override
    {
        return u"wl_svg"_s;
    }

    QIconEngine *clone() const override
    {
        return new SvgIconEngine(m_path);
    }

    bool isNull() override
    {
        return !QSvgRenderer(m_path).isValid();
    }

private:
    QString m_path;
};

const Entry &entryOf(Icon icon)
{
    for (const Entry &e : kEntries) {
        if (e.icon == icon)
            return e;
    }
    Q_UNREACHABLE_RETURN(kEntries[0]);
}

} // namespace

QList<Icon> all()
{
    QList<Icon> icons;
    for (const Entry &e : kEntries)
        icons.append(e.icon);
    return icons;
}

QString themeName(Icon icon)
{
    return QString::fromUtf16(entryOf(icon).themeName);
}

QString bundledPath(Icon icon)
{
    return u":/icons/actions/"_s + QString::fromUtf16(entryOf(icon).file) + u".svg"_s;
}

QIcon bundledIcon(Icon icon)
{
    return QIcon(new SvgIconEngine(bundledPath(icon)));
}

QIcon icon(Icon icon)
{
    const QIcon bundled = bundledIcon(icon);
    const QString name = themeName(icon);
    return name.isEmpty() ? bundled : QIcon::fromTheme(name, bundled);
}

QIcon dockIcon(const QString &dockObjectName)
{
    static const std::pair<const char16_t *, Icon> docks[] = {
        {u"SessionsDock", Icon::SessionsDock},       {u"TimelineDock", Icon::TimelineDock},
        {u"ThresholdsDock", Icon::ThresholdsDock},   {u"AnchorsDock", Icon::AnchorsDock},
        {u"OffloadsDock", Icon::OffloadsDock},       {u"ContextDock", Icon::ContextDock},
        {u"CompactionsDock", Icon::CompactionsDock},
    };
    for (const auto &[name, dock] : docks) {
        if (dockObjectName == QStringView(name))
            return icon(dock);
    }
    return {};
}

} // namespace wl::AppIcons
