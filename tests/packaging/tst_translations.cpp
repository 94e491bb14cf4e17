// Every user-visible string is translated into zh_CN, and the translations are loaded.
//
// lupdate runs over the sources (the same file list and include paths as the
// waterline_lupdate target) into a temporary copy of the committed .ts, so a new
// tr() string fails here until it is translated in translations/waterline_zh_CN.ts.
#include "AppIdentity.h"
#include "compaction/CompactionPolicy.h"
#include "llm/ChatError.h"
#include "replay/TranscriptFormats.h"
#include "settings/AppSettings.h"
#include "tools/BashTool.h"
#include "tools/GrepTool.h"
#include "workbench/DemoSession.h"

#include <QCoreApplication>
#include <QDir>
#include <QJsonObject>
#include <QFile>
#include <QHash>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>
#include <QXmlStreamReader>

#include <functional>

using namespace Qt::StringLiterals;

namespace {

struct TsMessage
{
    QString context;
    QString source;
    QString comment;
    QString location;        // file:line when the .ts has locations
    QString type;            // "", "unfinished", "vanished", "obsolete"
    bool numerus = false;
    QStringList forms;       // the translation, or its numerus forms

    QString describe() const
    {
        QString where = location.isEmpty() ? QString() : location + u": "_s;
        return where + u'[' + context + u"] \"" + source + u'"';
    }
};

QList<TsMessage> readTs(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = u"cannot read "_s + path;
        return {};
    }
    QList<TsMessage> messages;
    QXmlStreamReader xml(&file);
    QString context;
    TsMessage current;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement())
            continue;
        const auto name = xml.name();
        if (name == u"name") {
            context = xml.readElementText();
        } else if (name == u"message") {
            current = TsMessage();
            current.context = context;
            current.numerus = xml.attributes().value(u"numerus") == u"yes";
        } else if (name == u"location") {
            if (current.location.isEmpty())
                current.location = xml.attributes().value(u"filename").toString() + u':' + xml.attributes().value(u"line").toString();
        } else if (name == u"source") {
            current.source = xml.readElementText();
        } else if (name == u"comment") {
            current.comment = xml.readElementText();
        } else if (name == u"translation") {
            current.type = xml.attributes().value(u"type").toString();
            if (current.numerus) {
                while (xml.readNextStartElement()) {
                    if (xml.name() == u"numerusform")
                        current.forms.append(xml.readElementText());
                    else
                        xml.skipCurrentElement();
                }
            } else {
                current.forms = {xml.readElementText()};
            }
            messages.append(current);   // <translation> is the last child that matters
        }
    }
    if (xml.hasError())
        *error = path + u": "_s + xml.errorString();
    return messages;
}

// %1..%99, %L1 and %n, as a set: a translation may reorder them but not lose or invent one.
QSet<QString> placeholders(const QString &text)
{
    static const QRegularExpression re(u"%(L?[1-9][0-9]?|n)"_s);
    QSet<QString> found;
    for (const QRegularExpressionMatch &m : re.globalMatch(text))
        found.insert(m.captured(0).remove(u'L'));
    return found;
}

// A mnemonic: '&' before a character, not the escaped "&&".
bool hasAccelerator(const QString &text)
{
    static const QRegularExpression re(u"(?<!&)&(?!&)[^\\s&]"_s);
    return re.match(text).hasMatch();
}

QString joinFailures(const QStringList &failures, const QString &what)
{
    return u"%1 %2:\n  "_s.arg(failures.size()).arg(what) + failures.join(u"\n  "_s);
}

// The text of a C++ string literal's body: the escapes sources use (\n \t \" \\ \uXXXX).
QString unescapeCpp(const QString &body)
{
    QString out;
    for (qsizetype i = 0; i < body.size(); ++i) {
        const QChar c = body.at(i);
        if (c != u'\\' || i + 1 == body.size()) {
            out += c;
            continue;
        }
        const QChar e = body.at(++i);
        if (e == u'n')
            out += u'\n';
        else if (e == u't')
            out += u'\t';
        else if (e == u'u' && i + 4 < body.size()) {
            out += QChar(char16_t(body.mid(i + 1, 4).toUShort(nullptr, 16)));
            i += 4;
        } else
            out += e;   // \" \\ \'
    }
    return out;
}

bool hasChinese(const QString &text)
{
    return std::any_of(text.cbegin(), text.cend(), [](QChar c) { return c.unicode() >= 0x4E00 && c.unicode() <= 0x9FFF; });
}

// The sources lupdate scans, path -> contents.
QHash<QString, QString> scannedSources()
{
    QHash<QString, QString> texts;
    QFile list(QStringLiteral(WATERLINE_LUPDATE_LIST));
    if (!list.open(QIODevice::ReadOnly | QIODevice::Text))
        return texts;
    while (!list.atEnd()) {
        const QString path = QString::fromUtf8(list.readLine()).trimmed();
        if (path.isEmpty() || path.startsWith(u"-I"))
            continue;
        QFile source(path);
        if (source.open(QIODevice::ReadOnly))
            texts.insert(path, QString::fromUtf8(source.readAll()));
    }
    return texts;
}

using TextSource = std::function<QString()>;

void removeTranslators()
{
    const auto translators = QCoreApplication::instance()->findChildren<QTranslator *>(Qt::FindDirectChildrenOnly);
    for (QTranslator *t : translators)
        delete t;   // the destructor uninstalls it
}

} // namespace

Q_DECLARE_METATYPE(TextSource)

class TestTranslations : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanup();
    void everyStringIsTranslated();
    void committedFileHasNoStaleEntries();
    void placeholdersMatch();
    void pluralFormsComplete();
    void acceleratorsKept();
    void loaderFollowsLanguage_data();
    void loaderFollowsLanguage();
    void qtOwnTranslationsLoaded();
    void englishPluralsRead();
    void noLocalTrHelpers();
    void literalContextsFindTheirTranslation();
    void codePathsSpeakChinese_data();
    void codePathsSpeakChinese();
    void modelTextStaysEnglish_data();
    void modelTextStaysEnglish();
    void languageSettingMatchesAppSettings();

private:
    QTemporaryDir m_tmp;
    QList<TsMessage> m_committed;
    QList<TsMessage> m_refreshed;
};

void TestTranslations::initTestCase()
{
    wl::setApplicationIdentity(*QCoreApplication::instance());
    QVERIFY(m_tmp.isValid());
    const QString committed = QStringLiteral(WATERLINE_SOURCE_DIR "/translations/waterline_zh_CN.ts");
    const QString refreshed = m_tmp.filePath(u"waterline_zh_CN.ts"_s);
    QVERIFY2(QFile::copy(committed, refreshed), qPrintable(u"cannot copy "_s + committed));
    QFile::setPermissions(refreshed, QFile::ReadOwner | QFile::WriteOwner);

    QProcess lupdate;
    lupdate.setProcessChannelMode(QProcess::MergedChannels);
    lupdate.start(QStringLiteral(WATERLINE_LUPDATE),
                  {u"-no-obsolete"_s, u"-locations"_s, u"absolute"_s, u"-silent"_s,
                   u"@"_s + QStringLiteral(WATERLINE_LUPDATE_LIST), u"-ts"_s, refreshed});
    QVERIFY2(lupdate.waitForFinished(90000), "lupdate did not finish in 90 s");
    const QByteArray output = lupdate.readAll();
    QVERIFY2(lupdate.exitStatus() == QProcess::NormalExit && lupdate.exitCode() == 0, output.constData());

    QString error;
    m_committed = readTs(committed, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    m_refreshed = readTs(refreshed, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY2(m_refreshed.size() > 100, "lupdate found almost no strings: is the source list right?");
}

void TestTranslations::cleanup()
{
    removeTranslators();
}

void TestTranslations::everyStringIsTranslated()
{
    QStringList failures;
    for (const TsMessage &m : std::as_const(m_refreshed)) {
        const bool empty = std::any_of(m.forms.cbegin(), m.forms.cend(), [](const QString &f) { return f.trimmed().isEmpty(); });
        if (!m.type.isEmpty() || m.forms.isEmpty() || empty)
            failures.append(m.describe());
    }
    QVERIFY2(failures.isEmpty(),
             qPrintable(joinFailures(failures, u"strings are not translated into zh_CN "
                                               "(run `scripts/build waterline_lupdate`, then translate them in translations/waterline_zh_CN.ts)"_s)));
}

void TestTranslations::committedFileHasNoStaleEntries()
{
    QSet<QString> current;
    for (const TsMessage &m : std::as_const(m_refreshed))
        current.insert(m.context + u'\x1f' + m.source + u'\x1f' + m.comment);
    QStringList failures;
    for (const TsMessage &m : std::as_const(m_committed)) {
        if (m.type == u"vanished" || m.type == u"obsolete" || !current.contains(m.context + u'\x1f' + m.source + u'\x1f' + m.comment))
            failures.append(m.describe());
    }
    QVERIFY2(failures.isEmpty(),
             qPrintable(joinFailures(failures, u"entries of translations/waterline_zh_CN.ts are no longer in the sources "
                                               "(run `scripts/build waterline_lupdate`)"_s)));
}

void TestTranslations::placeholdersMatch()
{
    QStringList failures;
    for (const TsMessage &m : std::as_const(m_refreshed)) {
        const QSet<QString> wanted = placeholders(m.source);
        for (const QString &form : m.forms) {
            if (placeholders(form) != wanted)
                failures.append(m.describe() + u" -> \""_s + form + u'"');
        }
    }
    QVERIFY2(failures.isEmpty(), qPrintable(joinFailures(failures, u"translations change the placeholders (%1, %n...)"_s)));
}

void TestTranslations::pluralFormsComplete()
{
    // Chinese has a single plural form; lupdate writes as many <numerusform>s as the language has.
    int numerus = 0;
    QStringList failures;
    for (const TsMessage &m : std::as_const(m_refreshed)) {
        if (!m.numerus)
            continue;
        ++numerus;
        if (m.forms.size() != 1)
            failures.append(m.describe() + u" has %1 forms"_s.arg(m.forms.size()));
    }
    QVERIFY2(numerus > 0, "no plural (%n) strings found: the numerus check would be vacuous");
    QVERIFY2(failures.isEmpty(), qPrintable(joinFailures(failures, u"plural strings have the wrong number of forms for zh_CN"_s)));
}

void TestTranslations::acceleratorsKept()
{
    QStringList failures;
    for (const TsMessage &m : std::as_const(m_refreshed)) {
        if (!hasAccelerator(m.source))
            continue;
        for (const QString &form : m.forms) {
            if (!hasAccelerator(form))
                failures.append(m.describe() + u" -> \""_s + form + u'"');
        }
    }
    QVERIFY2(failures.isEmpty(), qPrintable(joinFailures(failures, u"translations lose the keyboard accelerator (&)"_s)));
}

void TestTranslations::loaderFollowsLanguage_data()
{
    QTest::addColumn<QString>("language");
    QTest::addColumn<bool>("translated");
    QTest::newRow("zh_CN") << u"zh_CN"_s << true;
    QTest::newRow("English") << u"en"_s << false;
}

void TestTranslations::loaderFollowsLanguage()
{
    QFETCH(QString, language);
    QFETCH(bool, translated);

    wl::installTranslations(*QCoreApplication::instance(), language);
    QLocale::setDefault(QLocale::c());
    int checked = 0;
    QStringList failures;
    for (const TsMessage &m : std::as_const(m_committed)) {
        if (m.numerus || m.forms.isEmpty() || m.forms.first() == m.source)
            continue;
        const QString got = QCoreApplication::translate(m.context.toUtf8().constData(), m.source.toUtf8().constData(),
                                                        m.comment.isEmpty() ? nullptr : m.comment.toUtf8().constData());
        const QString expected = translated ? m.forms.first() : m.source;
        ++checked;
        if (got != expected)
            failures.append(m.describe() + u" -> \""_s + got + u'"');
    }
    QVERIFY(checked > 100);
    QVERIFY2(failures.isEmpty(), qPrintable(joinFailures(failures, u"strings come out wrong"_s)));
}

// English needs no translation but its plural forms: "343 messages", not "343 message(s)".
void TestTranslations::englishPluralsRead()
{
    wl::installTranslations(*QCoreApplication::instance(), u"en"_s);
    QLocale::setDefault(QLocale::c());
    QCOMPARE(QCoreApplication::translate("wl::MainWindow", "%1: %n message(s)", nullptr, 343).arg(u"Demo"_s), u"Demo: 343 messages"_s);
    QCOMPARE(QCoreApplication::translate("wl::MainWindow", "%1: %n message(s)", nullptr, 1).arg(u"Demo"_s), u"Demo: 1 message"_s);
    QCOMPARE(QCoreApplication::translate("wl::MainWindow", ", %n compaction(s)", nullptr, 19), u", 19 compactions"_s);
    // A language Waterline has no catalogue for gets the English plurals too.
    wl::installTranslations(*QCoreApplication::instance(), u"C"_s);
    QCOMPARE(QCoreApplication::translate("wl::MainWindow", ", %n request(s)", nullptr, 152), u", 152 requests"_s);
    // Every plural string of the sources has both English forms, and none keeps a "(s)".
    const QString path = QStringLiteral(WATERLINE_SOURCE_DIR "/translations/waterline_en.ts");
    QFile file(path);
    QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(path));
    const QString ts = QString::fromUtf8(file.readAll());
    const qsizetype plurals = ts.count(u"numerus=\"yes\""_s);
    QCOMPARE(plurals, qsizetype(std::count_if(m_committed.cbegin(), m_committed.cend(), [](const TsMessage &m) { return m.numerus; })));
    QCOMPARE(ts.count(u"<numerusform>"_s), 2 * plurals);
    QVERIFY(!ts.contains(u"(s)</numerusform>"_s));
}

void TestTranslations::qtOwnTranslationsLoaded()
{
    const QStringList loaded = wl::installTranslations(*QCoreApplication::instance(), u"zh_CN"_s);
    QLocale::setDefault(QLocale::c());
    const bool hasQt = std::any_of(loaded.cbegin(), loaded.cend(), [](const QString &f) { return f.endsWith(u"/qtbase_zh_CN.qm"); });
    const bool hasOwn = std::any_of(loaded.cbegin(), loaded.cend(), [](const QString &f) { return f.startsWith(u":/i18n/waterline_zh"); });
    QVERIFY2(hasQt, qPrintable(u"Qt's own translation was not loaded: "_s + loaded.join(u", ")));
    QVERIFY2(hasOwn, qPrintable(u"Waterline's translation was not loaded: "_s + loaded.join(u", ")));
    // Qt's own dialogs speak Chinese too: QDialogButtonBox's "Cancel" comes from qtbase.
    QVERIFY(QCoreApplication::translate("QPlatformTheme", "Cancel") != u"Cancel");
}

// A local `tr(text)` helper calling QCoreApplication::translate("Context", text) asks
// for a context lupdate does not record (it files the call under the enclosing class),
// and the loader looks a string up under its exact context only. No source may have one.
void TestTranslations::noLocalTrHelpers()
{
    const QHash<QString, QString> texts = scannedSources();
    QVERIFY2(texts.size() > 100, "the lupdate source list is (nearly) empty");
    static const QRegularExpression helperDef(
        uR"re((QString\s+tr\s*\(\s*const\s+char\s*\*|auto\s+tr\s*=\s*\[|QCoreApplication::translate\(\s*"([^"]*)"\s*,\s*[A-Za-z_]\w*\s*[,)]))re"_s);
    // A variable source text is fine when its strings are marked QT_TRANSLATE_NOOP under that same
    // context: lupdate records them there and the lookup uses it.
    QString all;
    for (const QString &text : texts)
        all += text;
    QStringList failures;
    for (auto it = texts.cbegin(); it != texts.cend(); ++it) {
        for (const QRegularExpressionMatch &m : helperDef.globalMatch(it.value())) {
            if (m.hasCaptured(2) && all.contains(u"QT_TRANSLATE_NOOP(\""_s + m.captured(2) + u"\","_s))
                continue;
            const int line = int(it.value().left(m.capturedStart()).count(u'\n')) + 1;
            failures.append(u"%1:%2: %3"_s.arg(it.key()).arg(line).arg(m.captured(0)));
        }
    }
    QVERIFY2(failures.isEmpty(),
             qPrintable(joinFailures(failures, u"places translate a string that is not a literal, under a context lupdate cannot see "
                                               "(use tr() in the class, or QCoreApplication::translate(\"Context\", \"text\"))"_s)));
}

// Every QCoreApplication::translate("Context", "text") in the sources finds its Chinese
// text at run time under exactly that context (the files that once used local helpers).
void TestTranslations::literalContextsFindTheirTranslation()
{
    wl::installTranslations(*QCoreApplication::instance(), u"zh_CN"_s);
    QLocale::setDefault(QLocale::c());

    QSet<QString> translatedAsItself;
    for (const TsMessage &m : std::as_const(m_committed)) {
        if (!m.forms.isEmpty() && m.forms.first() == m.source)
            translatedAsItself.insert(m.source);
    }
    static const QRegularExpression call(
        uR"re(QCoreApplication::translate\(\s*"([^"]+)"\s*,\s*((?:"(?:[^"\\]|\\.)*"\s*)+)[,)])re"_s);
    static const QRegularExpression piece(uR"re("((?:[^"\\]|\\.)*)")re"_s);

    const QHash<QString, QString> texts = scannedSources();
    QSet<QString> contexts;
    int calls = 0;
    QStringList failures;
    for (auto it = texts.cbegin(); it != texts.cend(); ++it) {
        for (const QRegularExpressionMatch &m : call.globalMatch(it.value())) {
            QString literal;
            for (const QRegularExpressionMatch &p : piece.globalMatch(m.captured(2)))
                literal += p.captured(1);
            literal = unescapeCpp(literal);
            const QByteArray context = m.captured(1).toUtf8();
            contexts.insert(m.captured(1));
            ++calls;
            const QString got = QCoreApplication::translate(context.constData(), literal.toUtf8().constData(), nullptr,
                                                            literal.contains(u"%n") ? 2 : -1);
            if (got == literal && !translatedAsItself.contains(literal)) {
                const int line = int(it.value().left(m.capturedStart()).count(u'\n')) + 1;
                failures.append(u"%1:%2: [%3] \"%4\""_s.arg(it.key()).arg(line).arg(m.captured(1), literal));
            }
        }
    }
    // The former helper contexts are among them; fewer would mean the pattern no longer matches.
    for (const char *expected : {"TranscriptImport", "waterline-cli", "wl::ChatError", "CompactionPolicy", "DockPanels"})
        QVERIFY2(contexts.contains(QLatin1StringView(expected)), expected);
    QVERIFY(calls > 200);
    QVERIFY2(failures.isEmpty(), qPrintable(joinFailures(failures, u"strings are not found at run time under their literal context"_s)));
}

// Real code paths of files that used to translate through a helper give Chinese text
// under zh_CN (and English without a translator): the context the code asks under is
// the one in the catalogue.
void TestTranslations::codePathsSpeakChinese_data()
{
    QTest::addColumn<TextSource>("text");
    QTest::newRow("TranscriptFormats: a folder") << TextSource([] {
        return wl::TranscriptFormats::detect(QDir::tempPath()).error;
    });
    QTest::newRow("TranscriptFormats: an empty file") << TextSource([] {
        QTemporaryDir dir;
        QFile empty(dir.filePath(u"empty.jsonl"_s));
        if (!empty.open(QIODevice::WriteOnly))
            return QString();
        empty.close();
        return wl::TranscriptFormats::detect(empty.fileName()).error;
    });
    QTest::newRow("CompactionPolicy") << TextSource([] {
        wl::CompactionPolicy policy;
        policy.warn = 1.5;
        return policy.validate();
    });
    QTest::newRow("ChatError") << TextSource([] { return wl::ChatError::timeout(5000).message; });
    QTest::newRow("DemoSession") << TextSource([] { return wl::DemoSession::sourceNote(); });
}

void TestTranslations::codePathsSpeakChinese()
{
    QFETCH(TextSource, text);
    removeTranslators();
    const QString english = text();
    QVERIFY2(!english.isEmpty(), "the code path gave no text");
    QVERIFY2(!hasChinese(english), qPrintable(english));
    wl::installTranslations(*QCoreApplication::instance(), u"zh_CN"_s);
    QLocale::setDefault(QLocale::c());
    const QString chinese = text();
    QVERIFY2(hasChinese(chinese) && chinese != english, qPrintable(u"still English under zh_CN: "_s + chinese));
}

// Tool descriptions, argument errors and results go to the model: English whatever the UI language.
void TestTranslations::modelTextStaysEnglish_data()
{
    QTest::addColumn<TextSource>("text");
    QTest::addColumn<QString>("startsWith");
    QTest::newRow("bash description") << TextSource([] { return wl::BashTool().spec().description; })
                                      << u"Run a shell command"_s;
    QTest::newRow("grep description") << TextSource([] { return wl::GrepTool().spec().description; })
                                      << u"Search file contents"_s;
    QTest::newRow("argument error") << TextSource([] { return wl::BashTool().checkArguments(QJsonObject()); })
                                    << u"invalid arguments for bash: "_s;
}

void TestTranslations::modelTextStaysEnglish()
{
    QFETCH(TextSource, text);
    QFETCH(QString, startsWith);
    wl::installTranslations(*QCoreApplication::instance(), u"zh_CN"_s);
    QLocale::setDefault(QLocale::c());
    // The translator is live: a UI string of the same area does come out in Chinese.
    QVERIFY(hasChinese(wl::ChatError::timeout(5000).message));
    const QString got = text();
    QVERIFY2(got.startsWith(startsWith), qPrintable(got));
    QVERIFY2(!hasChinese(got), qPrintable(u"translated, but the model must read English: "_s + got));
    for (const TsMessage &m : std::as_const(m_refreshed))
        QVERIFY2(!got.startsWith(m.source) || m.source.size() < 12, qPrintable(u"in the catalogue: "_s + m.describe()));
}

void TestTranslations::languageSettingMatchesAppSettings()
{
    wl::AppSettings settings;
    for (const QString &language : wl::AppSettings::languages()) {
        settings.setLanguage(language);
        QCOMPARE(wl::languageSetting(), language);
    }
}

QTEST_MAIN(TestTranslations)
#include "tst_translations.moc"
