// waterline-iconrender SVG OUTDIR NAME SIZE...
// Writes OUTDIR/<SIZE>x<SIZE>/apps/NAME.png for each SIZE, rendered from SVG with QSvgRenderer,
// keeping the aspect ratio and centring the drawing on a transparent square.
#include <QCoreApplication>
#include <QDir>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>

#include <cstdio>

namespace {

int fail(const QString &text)
{
    std::fprintf(stderr, "waterline-iconrender: %s\n", qPrintable(text));
    return 1;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const QStringList args = QCoreApplication::arguments();
    if (args.size() < 5)
        return fail(QStringLiteral("usage: waterline-iconrender SVG OUTDIR NAME SIZE..."));

    QSvgRenderer renderer(args.at(1));
    if (!renderer.isValid())
        return fail(QStringLiteral("'%1' is not a valid SVG file").arg(args.at(1)));
    const QSizeF natural = renderer.viewBoxF().size();
    if (natural.isEmpty())
        return fail(QStringLiteral("'%1' has an empty view box").arg(args.at(1)));

    for (const QString &sizeText : args.mid(4)) {
        bool ok = false;
        const int size = sizeText.toInt(&ok);
        if (!ok || size < 1 || size > 4096)
            return fail(QStringLiteral("'%1' is not an icon size between 1 and 4096").arg(sizeText));

        QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        {
            QPainter painter(&image);
            painter.setRenderHint(QPainter::Antialiasing);
            painter.setRenderHint(QPainter::SmoothPixmapTransform);
            const QSizeF fitted = natural.scaled(size, size, Qt::KeepAspectRatio);
            const QRectF target(QPointF((size - fitted.width()) / 2.0, (size - fitted.height()) / 2.0), fitted);
            renderer.render(&painter, target);
        }

        const QString folder = QStringLiteral("%1/%2x%2/apps").arg(args.at(2)).arg(size);
        if (!QDir().mkpath(folder))
            return fail(QStringLiteral("cannot create the folder '%1'").arg(folder));
        const QString path = folder + QLatin1Char('/') + args.at(3) + QStringLiteral(".png");
        if (!image.save(path, "PNG"))
            return fail(QStringLiteral("cannot write '%1'").arg(path));
    }
    return 0;
}
