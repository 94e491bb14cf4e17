#pragma once

#include <QFont>
#include <QStringList>

class QLocale;

// Fonts for the text the main font has no glyphs for: tool output in Chinese, Japanese or Korean,
// and emoji. Each font gets an explicit families list (its own face first, then the fallbacks), so
// the choice does not depend on what fontconfig happens to sort first and no missing-glyph box shows
// while a font that has the glyph is installed. Debian packages them as fonts-noto-cjk and
// fonts-noto-color-emoji.
namespace wl::FontFallbacks {

// The fallback families in the order asked, only those in `available`: the Noto CJK face for
// `locale` first (Simplified Chinese unless it is Japanese, Korean or Traditional Chinese), the
// other CJK faces after it, then one colour emoji font. `monospaced`: each CJK region's
// monospaced face before its proportional one.
QStringList families(const QStringList &available, const QLocale &locale, bool monospaced = false);

// `font` with families() of the installed fonts and the default locale after its own family, which
// stays first; a fixed-pitch font gets the monospaced CJK faces, and the proportional system face last.
QFont withFallbacks(const QFont &font);

// Sets withFallbacks(QApplication::font()) as the application font (once: again changes nothing).
void applyToApplication();

} // namespace wl::FontFallbacks
