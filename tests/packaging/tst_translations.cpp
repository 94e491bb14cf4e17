// Every user-visible string is translated into zh_CN, and the translations are loaded.
//
// lupdate runs over the sources (the same file list and include paths as the
// waterline_lupdate target) into a temporary copy of the committed .ts, so a new
// tr() string fails here until it is translated in translations/waterline_zh_CN.ts.
#include "AppIdentity.h"
#include "settings/AppSettings.h"

#include <QCoreApplication>
#include <QFile>
#include <QHash>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>
#include <QXmlStreamReader>

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

void removeTranslators()
{
    const auto translators = QCoreApplication::instance()->findChildren<QTranslator *>(Qt::FindDirectChildrenOnly);
    for (QTranslator *t : translators)
        delete t;   // the destructor uninstalls it
}

} // namespace

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
    void helperContextsReachTheTranslation();
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

// Sources that translate through a local `tr(text)` helper calling
// QCoreApplication::translate("Context", text) ask for a context lupdate did not
// record; each such call must still find its translation through the loader.
void TestTranslations::helperContextsReachTheTranslation()
{
    wl::installTranslations(*QCoreApplication::instance(), u"zh_CN"_s);
    QLocale::setDefault(QLocale::c());

    QSet<QString> translatedAsItself;
    for (const TsMessage &m : std::as_const(m_committed)) {
        if (!m.forms.isEmpty() && m.forms.first() == m.source)
            translatedAsItself.insert(m.source);
    }

    QFile list(QStringLiteral(WATERLINE_LUPDATE_LIST));
    QVERIFY(list.open(QIODevice::ReadOnly | QIODevice::Text));
    static const QRegularExpression helperDef(uR"re((QString\s+tr\s*\(\s*const\s+char\s*\*|auto\s+tr\s*=\s*\[))re"_s);
    static const QRegularExpression helperCtx(uR"re(QCoreApplication::translate\(\s*"([^"]+)"\s*,\s*[A-Za-z_]\w*\s*\))re"_s);
    static const QRegularExpression include(uR"re(#include\s+"([^"]+)")re"_s);
    static const QRegularExpression call(uR"re((?<![\w:.>])tr\(\s*((?:"(?:[^"\\]|\\.)*"\s*)+)[,)])re"_s);
    static const QRegularExpression piece(uR"re("((?:[^"\\]|\\.)*)")re"_s);

    QHash<QString, QString> texts;   // path -> contents
    while (!list.atEnd()) {
        const QString path = QString::fromUtf8(list.readLine()).trimmed();
        if (path.isEmpty() || path.startsWith(u"-I"))
            continue;
        QFile source(path);
        QVERIFY2(source.open(QIODevice::ReadOnly), qPrintable(path));
        texts.insert(path, QString::fromUtf8(source.readAll()));
    }
    // Where each helper lives: its own file, or a header declaring it for the files that include it
    // (the context then comes from the header's .cpp).
    QHash<QString, QString> fileContext, headerContext;
    for (auto it = texts.cbegin(); it != texts.cend(); ++it) {
        if (!helperDef.match(it.value()).hasMatch())
            continue;
        const QRegularExpressionMatch ctx = helperCtx.match(it.value());
        if (ctx.hasMatch()) {
            fileContext.insert(it.key(), ctx.captured(1));
        } else if (it.key().endsWith(u".h")) {
            QString cpp = it.key();
            cpp.chop(2);
            const QRegularExpressionMatch own = helperCtx.match(texts.value(cpp + u".cpp"_s));
            if (own.hasMatch())
                headerContext.insert(it.key().section(u'/', -1), own.captured(1));
        }
    }
    for (auto it = texts.cbegin(); it != texts.cend(); ++it) {
        if (fileContext.contains(it.key()) || !it.key().endsWith(u".cpp"))
            continue;
        for (const QRegularExpressionMatch &m : include.globalMatch(it.value())) {
            if (headerContext.contains(m.captured(1).section(u'/', -1)))
                fileContext.insert(it.key(), headerContext.value(m.captured(1).section(u'/', -1)));
        }
    }

    int helperFiles = 0, calls = 0;
    QStringList failures;
    for (auto it = fileContext.cbegin(); it != fileContext.cend(); ++it) {
        ++helperFiles;
        const QString &text = texts[it.key()];
        const QByteArray context = it.value().toUtf8();
        for (const QRegularExpressionMatch &m : call.globalMatch(text)) {
            QString literal;
            for (const QRegularExpressionMatch &p : piece.globalMatch(m.captured(1)))
                literal += p.captured(1);
            literal = unescapeCpp(literal);
            ++calls;
            const QString got = QCoreApplication::translate(context.constData(), literal.toUtf8().constData(), nullptr,
                                                            literal.contains(u"%n") ? 2 : -1);
            if (got == literal && !translatedAsItself.contains(literal)) {
                const int line = int(text.left(m.capturedStart()).count(u'\n')) + 1;
                failures.append(u"%1:%2: [%3] \"%4\""_s.arg(it.key()).arg(line).arg(it.value(), literal));
            }
        }
    }
    QVERIFY2(helperFiles > 0 && calls > 0, "no tr() helper found: the check would be vacuous");
    QVERIFY2(failures.isEmpty(), qPrintable(joinFailures(failures, u"strings translated through a local tr() helper are not found at run time"_s)));
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
