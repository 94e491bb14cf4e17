#include "PaletteColors.h"

#include <QPalette>

namespace wl {

namespace {

constexpr int kDarkBelow = 128; // HSL lightness, 0..255

} // namespace

bool isDarkPalette(const QPalette &palette)
{
    return palette.color(QPalette::Base).lightness() < kDarkBelow;
}

bool isDarkWindow(const QPalette &palette)
{
    return palette.color(QPalette::Window).lightness() < kDarkBelow;
}

QColor mixColors(const QColor &from, const QColor &to, qreal t)
{
    return QColor::fromRgbF(float(from.redF() * (1 - t) + to.redF() * t),
                            float(from.greenF() * (1 - t) + to.greenF() * t),
                            float(from.blueF() * (1 - t) + to.blueF() * t));
}

} // namespace wl
