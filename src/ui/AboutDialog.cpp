#include "AboutDialog.h"

#include "workbench/DemoSession.h"

#include <QApplication>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QVBoxLayout>

#include <ksyntaxhighlighting_version.h>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

// Waterline's own licence: the LICENSE file at the top of the repository (installed as
// /usr/share/doc/waterline/copyright) and the metainfo's project_license say the same.
constexpr const char *kWaterlineLicence = "MIT";
// A legal notice, reproduced as written in LICENSE, not translated.
constexpr const char *kWaterlineCopyright = "Copyright (c) 2026 The Waterline developers";

QString link(const QString &url, const QString &text)
{
    return u"<a href=\""_s + url + u"\">"_s + text.toHtmlEscaped() + u"</a>"_s;
}

} // namespace

AboutDialog::AboutDialog(QWidget *parent)
    : QDialog(parent)
{
    setObjectName(u"aboutDialog"_s);
    setWindowTitle(tr("About Waterline"));

    const QString licenceLine = QString::fromLatin1(kWaterlineCopyright) + u"<br>"_s
        + tr("Waterline is distributed under the %1 licence.").arg(QString::fromLatin1(kWaterlineLicence)).toHtmlEscaped();

    m_text = u"<h3>"_s + tr("Waterline %1").arg(QStringLiteral(WATERLINE_VERSION)) + u"</h3><p>"_s
        + tr("A workbench for long-running LLM agents: run an agent in a workspace folder, "
             "and watch, inspect and tune how its context window is compacted.").toHtmlEscaped()
        + u"</p><p>"_s + licenceLine + u"</p><h4>"_s + tr("Third-party software").toHtmlEscaped()
        + u"</h4><ul><li>"_s
        + tr("Qt %1 (Core, Gui, Widgets, Network, Sql, Svg): %2").arg(QString::fromLatin1(qVersion()),
             link(u"https://www.gnu.org/licenses/lgpl-3.0.html"_s, tr("GNU LGPL version 3")))
        + u"</li><li>"_s
        + tr("Qt Charts %1: %2").arg(QString::fromLatin1(qVersion()),
             link(u"https://www.gnu.org/licenses/gpl-3.0.html"_s, tr("GNU GPL version 3")))
        + u"</li><li>"_s
        + tr("KDE Frameworks KSyntaxHighlighting %1: %2; its syntax definitions carry their own licences")
              .arg(QStringLiteral(KSYNTAXHIGHLIGHTING_VERSION_STRING), link(u"https://opensource.org/license/mit"_s, tr("MIT licence")))
        + u"</li>"_s
#ifdef WATERLINE_HAVE_KEYCHAIN
        + u"<li>"_s + tr("QtKeychain: %1").arg(link(u"https://opensource.org/license/bsd-2-clause"_s, tr("BSD 2-Clause licence"))) + u"</li>"_s
#endif
        + u"</ul><h4>"_s + tr("Demo session").toHtmlEscaped() + u"</h4><p>"_s
        + DemoSession::sourceNote().toHtmlEscaped() + u" "_s
        + link(u"https://github.com/marot/spotter"_s, u"github.com/marot/spotter"_s) + u"</p>"_s;

    auto *icon = new QLabel(this);
    icon->setPixmap(QApplication::windowIcon().pixmap(64, 64));
    icon->setAlignment(Qt::AlignTop);

    auto *label = new QLabel(m_text, this);
    label->setObjectName(u"aboutText"_s);
    label->setTextFormat(Qt::RichText);
    label->setWordWrap(true);
    label->setOpenExternalLinks(true);
    label->setTextInteractionFlags(Qt::TextBrowserInteraction);
    label->setMinimumWidth(460);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton *aboutQt = buttons->addButton(tr("About &Qt"), QDialogButtonBox::HelpRole);
    aboutQt->setObjectName(u"aboutQtButton"_s);
    connect(aboutQt, &QPushButton::clicked, this, [this] { QMessageBox::aboutQt(this); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *top = new QHBoxLayout;
    top->addWidget(icon);
    top->addWidget(label, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(buttons);
}

void AboutDialog::openFor(QWidget *parent)
{
    auto *dialog = new AboutDialog(parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
}

QString AboutDialog::text() const
{
    return m_text;
}

} // namespace wl
