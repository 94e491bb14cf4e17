// Help > About: version and the licences of what Waterline is built with, and the demo's source.
#include "AboutDialog.h"
#include "MainWindow.h"

#include <QAction>
#include <QFile>
#include <QPushButton>
#include <QTest>

#include <ksyntaxhighlighting_version.h>

using namespace Qt::StringLiterals;

class TestAboutDialog : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void namesVersionsAndLicences_data();
    void namesVersionsAndLicences();
    void statesTheLicenceOfTheLicenseFile();
    void offersAboutQt();
    void helpMenuOpensIt();
};

void TestAboutDialog::namesVersionsAndLicences_data()
{
    QTest::addColumn<QString>("needle");
    QTest::newRow("Waterline version") << u"Waterline " WATERLINE_VERSION ""_s;
    QTest::newRow("Qt version") << QString::fromLatin1(qVersion());
    QTest::newRow("Qt licence") << u"GNU LGPL version 3"_s;
    QTest::newRow("Qt Charts licence") << u"Qt Charts "_s + QString::fromLatin1(qVersion()) + u": <a href=\"https://www.gnu.org/licenses/gpl-3.0.html\">GNU GPL version 3</a>"_s;
    QTest::newRow("KSyntaxHighlighting") << u"KSyntaxHighlighting " KSYNTAXHIGHLIGHTING_VERSION_STRING ": <a href=\"https://opensource.org/license/mit\">MIT licence</a>"_s;
    QTest::newRow("demo source repository") << u"github.com/marot/spotter"_s;
    QTest::newRow("demo transcript path") << u"258c7280-ae70-4798-800f-63464d01a85d.jsonl"_s;
    QTest::newRow("demo licence") << u"MIT licence)."_s;
}

void TestAboutDialog::namesVersionsAndLicences()
{
    QFETCH(QString, needle);
    wl::AboutDialog dialog;
    QVERIFY2(dialog.text().contains(needle), qPrintable(u"not in the About text: "_s + needle + u"\n"_s + dialog.text()));
}

void TestAboutDialog::statesTheLicenceOfTheLicenseFile()
{
    // The licence and copyright holder come from the repository's LICENSE file, which the
    // metainfo's project_license must name too: the dialog may not claim anything else.
    QFile licenseFile(QStringLiteral(WATERLINE_SOURCE_DIR "/LICENSE"));
    QVERIFY2(licenseFile.open(QIODevice::ReadOnly | QIODevice::Text), "the repository has no LICENSE file");
    const QStringList lines = QString::fromUtf8(licenseFile.readAll()).split(u'\n');
    QVERIFY(lines.size() > 3);
    const QString heading = lines.first().trimmed();          // "MIT License"
    QVERIFY2(heading.endsWith(u" License"_s), qPrintable(heading));
    const QString licence = heading.chopped(int(qstrlen(" License")));
    QString copyright;
    for (const QString &line : lines) {
        if (line.startsWith(u"Copyright"_s))
            copyright = line.trimmed();
    }
    QVERIFY2(!copyright.isEmpty(), "LICENSE names no copyright holder");

    QFile metainfo(QStringLiteral(WATERLINE_SOURCE_DIR "/packaging/dev.waterline.Waterline.metainfo.xml"));
    QVERIFY(metainfo.open(QIODevice::ReadOnly));
    QVERIFY2(QString::fromUtf8(metainfo.readAll()).contains(u"<project_license>"_s + licence + u"</project_license>"_s),
             qPrintable(u"the metainfo's project_license is not "_s + licence));

    wl::AboutDialog dialog;
    const QString text = dialog.text();
    QVERIFY2(text.contains(u"Waterline is distributed under the "_s + licence + u" licence."_s), qPrintable(text));
    QVERIFY2(text.contains(copyright), qPrintable(u"not in the About text: "_s + copyright + u"\n"_s + text));
}

void TestAboutDialog::offersAboutQt()
{
    wl::AboutDialog dialog;
    auto *button = dialog.findChild<QPushButton *>(u"aboutQtButton"_s);
    QVERIFY(button);
    QCOMPARE(button->text(), u"About &Qt"_s);
}

void TestAboutDialog::helpMenuOpensIt()
{
    wl::MainWindow window;
    window.show();
    QAction *about = nullptr;
    const auto actions = window.findChildren<QAction *>();
    for (QAction *action : actions) {
        if (action->menuRole() == QAction::AboutRole)
            about = action;
    }
    QVERIFY(about);
    QVERIFY(!window.findChild<wl::AboutDialog *>());
    about->trigger();
    QTRY_VERIFY(window.findChild<wl::AboutDialog *>() && window.findChild<wl::AboutDialog *>()->isVisible());
    auto *dialog = window.findChild<wl::AboutDialog *>();
    QVERIFY(dialog->testAttribute(Qt::WA_DeleteOnClose));
    QCOMPARE(dialog->windowTitle(), u"About Waterline"_s);
}

QTEST_MAIN(TestAboutDialog)
#include "tst_aboutdialog.moc"
