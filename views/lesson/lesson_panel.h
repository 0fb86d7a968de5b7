// The guided tour's side panel (issue 30, item 3): one stage of a Lesson
// (core/session/lesson.h) at a time — its title, its text (generated from
// the run; `code` spans in monospace), the instructions it shows as links,
// "‹ Back" / "Next ›", "stage k of n" and a close button. The panel only
// shows the Lesson it is given; the main window builds it off the UI
// thread and, on stageChanged, shows the stage's step, panel and subject.
#pragma once

#include <QString>
#include <QStringList>
#include <QWidget>
#include <memory>

#include "core/session/lesson.h"

class QLabel;
class QPushButton;
class QTextBrowser;
class QToolButton;

namespace hloscope::views {

class LessonPanel : public QWidget {
  Q_OBJECT

 public:
  explicit LessonPanel(QWidget* parent = nullptr);

  // Shows `lesson` at `stage` (clamped; null: none, with the message of
  // setMessage kept). `captions`: one per stage, what the main window shows
  // for it ("step 30 · priority_fusion"); may be empty. Emits stageChanged.
  void setLesson(std::shared_ptr<const Lesson> lesson, int stage = 0, QStringList captions = {});
  // Without a lesson: a line in place of the text ("building the tour…").
  void setMessage(const QString& message);
  // Goes to stage k (0-based, clamped) and emits stageChanged(k).
  void setStage(int k);
  void next() { setStage(stage_ + 1); }
  void back() { setStage(stage_ - 1); }

  const std::shared_ptr<const Lesson>& lesson() const { return lesson_; }
  int stage() const { return stage_; }  // -1 without a lesson
  int stageCount() const;
  const LessonStage* currentStage() const;

  // What is shown (tests, screenshots).
  QString titleText() const;
  QString positionText() const;  // "Stage 2 of 5"
  QString bodyText() const;      // the text as plain text
  QPushButton* backButton() const { return back_; }
  QPushButton* nextButton() const { return next_; }
  QToolButton* closeButton() const { return close_; }
  QTextBrowser* browser() const { return text_; }

  // The stage's text as HTML: paragraphs, `code` in monospace, and the
  // subjects as links "subject:NAME" (at most a dozen).
  static QString StageHtml(const LessonStage& stage, const QString& caption);

 signals:
  void stageChanged(int k);
  void subjectActivated(QString name);  // a subject link was clicked
  void closeRequested();

 private:
  void refresh();

  std::shared_ptr<const Lesson> lesson_;
  QStringList captions_;
  int stage_ = -1;
  QString message_;
  QLabel* position_;
  QLabel* title_;
  QTextBrowser* text_;
  QPushButton* back_;
  QPushButton* next_;
  QToolButton* close_;
};

}  // namespace hloscope::views
