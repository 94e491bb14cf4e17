#include "common/AppIcons.h"

#include <QApplication>
#include <QIconEngine>
#include <QPainter>
#include <QPixmap>
#include <QPixmapCache>
#include <QStyle>
#include <QStyleOption>
#include <QSvgRenderer>

#include <memory>

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
    {Icon::ProxyDock, u"network-connect", u"network-connect"},
};

// Draws a bundled SVG at any size with Qt SVG itself, so the icons need no image or icon-engine plugin
// (Debian ships those in qt6-svg-plugins, which a minimal install lacks). Disabled is the style's
// dimmed version of the drawing.
class SvgIconEngine : public QIconEngine
{
public:
    explicit SvgIconEngine(const QString &path)
        : m_path(path)
        , m_renderer(std::make_shared<QSvgRenderer>(path))
    {
    }

    void paint(QPainter *painter, const QRect &rect, QIcon::Mode mode, QIcon::State state) override
    {
        const qreal scale = painter->device() ? painter->device()->devicePixelRatioF() : 1.0;
        painter->drawPixmap(rect, scaledPixmap(rect.size(), mode, state, scale));
    }

    QPixmap pixmap(const QSize &size, QIcon::Mode mode, QIcon::State state) override
    {
        return scaledPixmap(size, mode, state, 1.0);
    }

    QPixmap scaledPixmap(const QSize &size, QIcon::Mode mode, QIcon::State, qreal scale) override
    {
        const QSize pixels = size * scale;
        if (pixels.isEmpty() || !m_renderer->isValid())
            return {};
        // Menus and buttons ask on every paint: each size and mode is drawn once.
        // (The disabled look follows the palette.)
        const qint64 palette = mode == QIcon::Disabled ? QApplication::palette().cacheKey() : 0;
        const QString key = u"wl_icon:%1:%2x%3:%4:%5"_s.arg(m_path).arg(pixels.width()).arg(pixels.height()).arg(int(mode)).arg(palette);
        QPixmap out;
        if (QPixmapCache::find(key, &out))
            return out;
        QImage image(pixels, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        QPainter painter(&image);
        m_renderer->render(&painter, QRectF(QPointF(0, 0), QSizeF(pixels)));
        painter.end();
        out = QPixmap::fromImage(image);
        out.setDevicePixelRatio(scale);
        if (mode == QIcon::Disabled && qApp) {
            QStyleOption option;
            option.palette = QApplication::palette();
            out = QApplication::style()->generatedIconPixmap(QIcon::Disabled, out, &option);
        }
        QPixmapCache::insert(key, out);
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
        return new SvgIconEngine(*this);
    }

    bool isNull() override
    {
        return !m_renderer->isValid();
    }

private:
    QString m_path;
    std::shared_ptr<QSvgRenderer> m_renderer; // shared by clones; drawn on the GUI thread only
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
        {u"CompactionsDock", Icon::CompactionsDock}, {u"ProxyDock", Icon::ProxyDock},
    };
    for (const auto &[name, dock] : docks) {
        if (dockObjectName == QStringView(name))
            return icon(dock);
    }
    return {};
}

} // namespace wl::AppIcons
