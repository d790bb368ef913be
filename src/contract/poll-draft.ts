// «Создать опрос»'s draft and its checks (docs/behaviour.md §10.33 Polls), apart from poll.ts: only the poll composer
// (loaded with its dialog) needs them, the first bundle does not.
/** What «Создать опрос» holds while it is written (the pollComposer statechart's draft). */
export interface PollDraft {
  question: string;
  options: string[];
  multiple: boolean;
  anonymous: boolean;
  /** A quiz: the index of the right option, null until one is marked. */
  quiz: boolean;
  correctOption: number | null;
  explanation: string;
}

export const POLL_TEXT = {
  noQuestion: 'Напишите вопрос',
  emptyOption: 'Вариант ответа не может быть пустым',
  repeated: 'Варианты ответа не должны повторяться',
  noCorrect: 'Отметьте правильный ответ',
} as const;

/**
 * The first thing that keeps a draft from being sent, in the server's words (NewPoll in entities.ts says the same),
 * or null when it can go.
 */
export function pollDraftProblem(
  d: PollDraft,
  limits: { questionMax: number; optionMax: number; optionsMin: number; optionsMax: number },
): string | null {
  const question = d.question.trim();
  if (!question) return POLL_TEXT.noQuestion;
  if (question.length > limits.questionMax) return `Вопрос — не длиннее ${limits.questionMax} символов`;
  const options = d.options.map((o) => o.trim());
  if (options.length < limits.optionsMin) return `Нужно хотя бы ${limits.optionsMin} варианта ответа`;
  if (options.length > limits.optionsMax) return `Вариантов ответа — не больше ${limits.optionsMax}`;
  if (options.some((o) => !o)) return POLL_TEXT.emptyOption;
  if (options.some((o) => o.length > limits.optionMax))
    return `Вариант ответа — не длиннее ${limits.optionMax} символов`;
  if (new Set(options.map((o) => o.toLocaleLowerCase('ru'))).size !== options.length) return POLL_TEXT.repeated;
  if (d.quiz && (d.correctOption === null || d.correctOption >= options.length)) return POLL_TEXT.noCorrect;
  return null;
}
