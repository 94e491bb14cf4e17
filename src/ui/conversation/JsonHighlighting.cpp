#include "JsonHighlighting.h"

#include "common/Highlighting.h"

#include <KSyntaxHighlighting/Definition>
#include <KSyntaxHighlighting/Repository>
#include <KSyntaxHighlighting/SyntaxHighlighter>
#include <KSyntaxHighlighting/Theme>

#include <QPalette>
#include <QTextDocument>

using namespace Qt::StringLiterals;

namespace wl {

void attachJsonHighlighting(QTextDocument *document, const QPalette &palette)
{
    // Row layouts are rebuilt on palette changes, so no palette watching is needed here: the
    // shared repository and theme choice, set up in the order that never paints invisible text.
    const KSyntaxHighlighting::Definition definition = Highlighting::repository().definitionForName(u"JSON"_s);
    const KSyntaxHighlighting::Theme theme = Highlighting::themeFor(palette);
    if (!definition.isValid() || !theme.isValid())
        return;
    auto *highlighter = new KSyntaxHighlighting::SyntaxHighlighter(document);
    highlighter->setTheme(theme);
    highlighter->setDefinition(definition);
    highlighter->rehighlight();
}

} // namespace wl
