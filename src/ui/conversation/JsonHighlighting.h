#pragma once

class QPalette;
class QTextDocument;

namespace wl {

// Highlights a document holding JSON with KSyntaxHighlighting, in the light or dark
// default theme that matches the palette. The highlighter is a child of the document.
// Uses the shared repository and theme choice of wl::Highlighting.
void attachJsonHighlighting(QTextDocument *document, const QPalette &palette);

} // namespace wl
