#include "views/lesson/lesson_panel.h"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTextBrowser>
#include <QTextDocument>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>
#include <algorithm>

namespace hloscope::views {
namespace {

constexpr int kMaxSubjectLinks = 12;

// Plain text with `code` spans → HTML: escaped, the spans in the fixed font.
QString InlineHtml(const QString& text) {
  static const QString mono = QFontDatabase::systemFont(QFontDatabase::FixedFont).family();
  QString out;
  const QStringList parts = text.split('`');
  // An odd count of backquotes leaves the last one literal.
  const bool balanced = parts.size() % 2 == 1;
  for (int i = 0; i < parts.size(); ++i) {
    const QString escaped = parts[i].toHtmlEscaped();
    if (i % 2 == 0 || (!balanced && i == parts.size() - 1)) {
      out += (i % 2 == 1 ? QStringLiteral("`") : QString()) + escaped;
      continue;
    }
    out += QStringLiteral("<span style=\"font-family:'%1'; background-color:#eef0f4;\">%2</span>")
               .arg(mono, escaped);
  }
  return out;
}

bool IsListLine(const QString& line) {
  const QString t = line.trimmed();
  return t.startsWith("- ") || t.startsWith("* ") || t.startsWith(QChar(0x2022));
}

QString ListItem(const QString& line) {
  QString t = line.trimmed();
  t.remove(0, t.startsWith(QChar(0x2022)) ? 1 : 2);
  return t.trimmed();
}

}  // namespace

LessonPanel::LessonPanel(QWidget* parent) : QWidget(parent) {
  setObjectName("lesson_panel");
  position_ = new QLabel;
  position_->setObjectName("lesson_position");
  position_->setStyleSheet("QLabel { color: #555; }");
  close_ = new QToolButton;
  close_->setObjectName("lesson_close");
  close_->setText(QStringLiteral("\u2715"));
  close_->setToolTip(tr("Close the guided tour"));
  close_->setAutoRaise(true);
  auto* top = new QHBoxLayout;
  top->addWidget(position_, 1);
  top->addWidget(close_);

  title_ = new QLabel;
  title_->setObjectName("lesson_title");
  title_->setWordWrap(true);
  QFont f = title_->font();
  f.setBold(true);
  f.setPointSizeF(f.pointSizeF() * 1.2);
  title_->setFont(f);

  text_ = new QTextBrowser;
  text_->setObjectName("lesson_text");
  text_->setOpenLinks(false);
  text_->setFrameShape(QFrame::NoFrame);
  text_->document()->setDocumentMargin(2);
  connect(text_, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
    if (url.scheme() == "subject") emit subjectActivated(url.path());
  });

  back_ = new QPushButton(tr("\u2039 Back"));
  back_->setObjectName("lesson_back");
  next_ = new QPushButton(tr("Next \u203a"));
  next_->setObjectName("lesson_next");
  next_->setDefault(true);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(back_);
  buttons->addStretch(1);
  buttons->addWidget(next_);

  auto* column = new QVBoxLayout(this);
  column->setContentsMargins(8, 6, 8, 8);
  column->addLayout(top);
  column->addWidget(title_);
  column->addWidget(text_, 1);
  column->addLayout(buttons);

  connect(back_, &QPushButton::clicked, this, &LessonPanel::back);
  connect(next_, &QPushButton::clicked, this, &LessonPanel::next);
  connect(close_, &QToolButton::clicked, this, &LessonPanel::closeRequested);
  refresh();
}

void LessonPanel::setLesson(std::shared_ptr<const Lesson> lesson, int stage, QStringList captions) {
  lesson_ = std::move(lesson);
  captions_ = std::move(captions);
  stage_ = -1;
  if (!lesson_ || lesson_->stages.empty()) {
    if (lesson_) message_ = tr("The tour has no stages for this module.");
    refresh();
    return;
  }
  setStage(stage);
}

void LessonPanel::setMessage(const QString& message) {
  message_ = message;
  if (!lesson_) refresh();
}

void LessonPanel::setStage(int k) {
  if (!lesson_ || lesson_->stages.empty()) return;
  k = std::clamp(k, 0, stageCount() - 1);
  const bool changed = k != stage_;
  stage_ = k;
  refresh();
  if (changed) emit stageChanged(k);
}

int LessonPanel::stageCount() const { return lesson_ ? static_cast<int>(lesson_->stages.size()) : 0; }

const LessonStage* LessonPanel::currentStage() const {
  return stage_ >= 0 && stage_ < stageCount() ? &lesson_->stages[stage_] : nullptr;
}

QString LessonPanel::titleText() const { return title_->text(); }
QString LessonPanel::positionText() const { return position_->text(); }
QString LessonPanel::bodyText() const { return text_->toPlainText(); }

QString LessonPanel::StageHtml(const LessonStage& stage, const QString& caption) {
  QString html;
  if (!caption.isEmpty())
    html += QStringLiteral("<p style=\"color:#666;\">%1</p>").arg(caption.toHtmlEscaped());
  const QStringList paragraphs = QString::fromStdString(stage.text).split(QStringLiteral("\n\n"), Qt::SkipEmptyParts);
  for (const QString& p : paragraphs) {
    const QStringList lines = p.split('\n', Qt::SkipEmptyParts);
    QString para;
    bool in_list = false;
    for (const QString& line : lines) {
      if (IsListLine(line)) {
        if (!in_list) para += QStringLiteral("<ul style=\"margin-left:-16px;\">");
        in_list = true;
        para += QStringLiteral("<li>%1</li>").arg(InlineHtml(ListItem(line)));
        continue;
      }
      if (in_list) para += QStringLiteral("</ul>");
      in_list = false;
      if (!para.isEmpty() && !para.endsWith(QStringLiteral("</ul>"))) para += ' ';
      para += InlineHtml(line.trimmed());
    }
    if (in_list) para += QStringLiteral("</ul>");
    html += para.startsWith(QStringLiteral("<ul")) ? para : QStringLiteral("<p>%1</p>").arg(para);
  }
  if (!stage.subjects.empty()) {
    static const QString mono = QFontDatabase::systemFont(QFontDatabase::FixedFont).family();
    QStringList links;
    const int n = std::min<int>(kMaxSubjectLinks, static_cast<int>(stage.subjects.size()));
    for (int i = 0; i < n; ++i) {
      const QString name = QString::fromStdString(stage.subjects[i]);
      QUrl url;
      url.setScheme("subject");
      url.setPath(name);
      links << QStringLiteral("<a href=\"%1\" style=\"font-family:'%2';\">%3</a>")
                   .arg(url.toString(QUrl::FullyEncoded).toHtmlEscaped(), mono, name.toHtmlEscaped());
    }
    QString more;
    if (static_cast<int>(stage.subjects.size()) > n)
      more = QObject::tr(" and %1 more").arg(static_cast<int>(stage.subjects.size()) - n);
    html += QStringLiteral("<p style=\"color:#444;\">%1 %2%3</p>")
                .arg(stage.subjects.size() == 1 ? QObject::tr("Selected:") : QObject::tr("Shown (click to select):"),
                     links.join(QStringLiteral(", ")), more);
  }
  return html;
}

void LessonPanel::refresh() {
  const LessonStage* s = currentStage();
  if (!s) {
    position_->setText(tr("Guided tour"));
    title_->setText(lesson_ && !lesson_->module_name.empty() ? QString::fromStdString(lesson_->module_name) : QString());
    title_->setVisible(!title_->text().isEmpty());
    text_->setHtml(QStringLiteral("<p style=\"color:#666;\">%1</p>").arg(message_.toHtmlEscaped()));
    back_->setEnabled(false);
    next_->setEnabled(false);
    return;
  }
  position_->setText(tr("Stage %1 of %2").arg(stage_ + 1).arg(stageCount()));
  title_->setText(QString::fromStdString(s->title));
  title_->setVisible(true);
  text_->setHtml(StageHtml(*s, stage_ < captions_.size() ? captions_[stage_] : QString()));
  back_->setEnabled(stage_ > 0);
  next_->setEnabled(stage_ + 1 < stageCount());
}

}  // namespace hloscope::views
