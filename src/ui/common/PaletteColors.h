#pragma once

#include <QColor>

class QPalette;

// The colour helpers every painting part of the UI shares: whether a palette is dark, and
// mixing two colours. Kept here once so light and dark choices agree across the window.
namespace wl {

// Whether the views of `palette` are dark: its Base (the background of lists, editors, the
// conversation, the timeline's plot) has an HSL lightness below 128 of 255, so mid-grey #808080
// is light and #7f7f7f dark. Ask this before picking a colour that is drawn on Base, which is
// nearly every colour the UI picks per light or dark palette.
bool isDarkPalette(const QPalette &palette);

// Whether the window of `palette` is dark: its Window colour has an HSL lightness below 128.
// Only for choosing a whole syntax highlighting theme (Highlighting::themeFor()): that theme
// brings its own background and text, which Highlighting::applyEditorColors() writes into the
// editor's Base and Text. Reading Base back would return the theme's own choice and never follow
// the application's theme; Window is left alone, so it still says what the theme is.
bool isDarkWindow(const QPalette &palette);

// `from` moved the fraction `t` (0 = from, 1 = to) towards `to`, channel by channel in RGB.
// The result is opaque.
QColor mixColors(const QColor &from, const QColor &to, qreal t);

} // namespace wl
