#include "JsonHighlighting.h"

#include <KSyntaxHighlighting/Definition>
#include <KSyntaxHighlighting/Repository>
#include <KSyntaxHighlighting/SyntaxHighlighter>
#include <KSyntaxHighlighting/Theme>

#include <QPalette>
#include <QTextDocument>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

// Loading the definitions takes a while: one repository for the process, made on first use.
KSyntaxHighlighting::Repository &repository()
{
    static KSyntaxHighlighting::Repository instance;
    return instance;
}

} // namespace

void attachJsonHighlighting(QTextDocument *document, const QPalette &palette)
{
    KSyntaxHighlighting::Repository &repo = repository();
    const KSyntaxHighlighting::Definition definition = repo.definitionForName(u"JSON"_s);
    if (!definition.isValid())
        return;
    const bool dark = palette.color(QPalette::Base).lightness() < 128;
    const KSyntaxHighlighting::Theme theme =
        repo.defaultTheme(dark ? KSyntaxHighlighting::Repository::DarkTheme : KSyntaxHighlighting::Repository::LightTheme);
    if (!theme.isValid())
        return;
    auto *highlighter = new KSyntaxHighlighting::SyntaxHighlighter(document);
    // Theme before definition, then a synchronous pass: otherwise the text paints invisible.
    highlighter->setTheme(theme);
    highlighter->setDefinition(definition);
    highlighter->rehighlight();
}

} // namespace wl
