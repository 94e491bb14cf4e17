#include "CompositionStyle.h"

#include "PaletteColors.h"

#include <QCoreApplication>
#include <QLocale>
#include <QPalette>
#include <QStringList>

using namespace Qt::StringLiterals;

namespace wl {

QColor compositionColor(ViewComposition::Part part, const QPalette &palette)
{
    using Part = ViewComposition::Part;
    const bool dark = isDarkPalette(palette);
    switch (part) {
    case Part::SystemPrompt: return dark ? QColor(0x7f, 0x9c, 0xf5) : QColor(0x43, 0x56, 0xb8);
    case Part::ToolSchemas: return dark ? QColor(0x4f, 0xd1, 0xc5) : QColor(0x23, 0x8a, 0x80);
    case Part::Overhead: return dark ? QColor(0xb7, 0x94, 0xf4) : QColor(0x6b, 0x46, 0xc1);
    case Part::Checkpoint: return dark ? QColor(0x68, 0xd3, 0x91) : QColor(0x2f, 0x85, 0x5a);
    case Part::Pinned: return dark ? QColor(0xf6, 0x87, 0xb3) : QColor(0xb8, 0x32, 0x80);
    case Part::History: return dark ? QColor(0x42, 0x99, 0xe1) : QColor(0x31, 0x82, 0xce);
    case Part::Offloaded: return dark ? QColor(0x2a, 0x5a, 0x86) : QColor(0x9c, 0xcf, 0xf2);
    case Part::Calibration: return dark ? QColor(0xf6, 0xad, 0x55) : QColor(0xc0, 0x56, 0x21);
    case Part::Reserved: return dark ? QColor(0x71, 0x80, 0x96) : QColor(0xa0, 0xae, 0xc0);
    case Part::Free: return mixColors(palette.color(QPalette::Base), palette.color(QPalette::Text), dark ? 0.16 : 0.11);
    }
    return QColor(Qt::gray);
}

QString compositionPartName(ViewComposition::Part part)
{
    using Part = ViewComposition::Part;
    switch (part) {
    case Part::SystemPrompt: return QCoreApplication::translate("wl::Composition", "System prompt");
    case Part::ToolSchemas: return QCoreApplication::translate("wl::Composition", "Tool schemas");
    case Part::Overhead: return QCoreApplication::translate("wl::Composition", "Estimated overhead (import)");
    case Part::Checkpoint: return QCoreApplication::translate("wl::Composition", "Checkpoint");
    case Part::Pinned: return QCoreApplication::translate("wl::Composition", "Pinned");
    case Part::History: return QCoreApplication::translate("wl::Composition", "History, verbatim");
    case Part::Offloaded: return QCoreApplication::translate("wl::Composition", "Offload placeholders");
    case Part::Calibration: return QCoreApplication::translate("wl::Composition", "Provider's count beyond bytes / 4 (calibrated)");
    case Part::Reserved: return QCoreApplication::translate("wl::Composition", "Reserved output");
    case Part::Free: return QCoreApplication::translate("wl::Composition", "Free");
    }
    return {};
}

QString compositionFigures(const ViewComposition &composition, const QPalette &palette, bool html)
{
    const QLocale locale;
    QStringList lines;
    // Top of the stack first, as the chart and the bar read from the top and the right.
    for (auto it = ViewComposition::kParts.rbegin(); it != ViewComposition::kParts.rend(); ++it) {
        const ViewComposition::Part part = *it;
        const qint64 tokens = composition.tokens(part);
        if (tokens <= 0)
            continue;
        QString line = composition.window() > 0
            ? QCoreApplication::translate("wl::Composition", "%1: %2 tokens (%3%)")
                  .arg(compositionPartName(part), locale.toString(tokens), locale.toString(composition.share(part) * 100.0, 'f', 1))
            : QCoreApplication::translate("wl::Composition", "%1: %2 tokens").arg(compositionPartName(part), locale.toString(tokens));
        if (html)
            line = u"<span style=\"color:%1\">\u25a0</span> %2"_s.arg(compositionColor(part, palette).name(), line.toHtmlEscaped());
        lines.append(line);
    }
    QString total = composition.window() > 0
        ? QCoreApplication::translate("wl::Composition", "Window: %1 tokens").arg(locale.toString(composition.window()))
        : QCoreApplication::translate("wl::Composition", "No context window");
    if (composition.overflow() > 0)
        total += u' ' + QCoreApplication::translate("wl::Composition", "(over it by %1 tokens)").arg(locale.toString(composition.overflow()));
    lines.append(html ? total.toHtmlEscaped() : total);
    return lines.join(html ? u"<br>"_s : u"\n"_s);
}

} // namespace wl
