/**
 * The result of an answered `ask_user_clarification`: what the model reads, and what the chat's card shows back to the
 * person as their answer (components/QuestionCard.tsx `AnsweredQuestion`). One wording for both sides.
 */
const PREFIX = 'The user answered: ';

export const clarificationResult = (answer: string): string => `${PREFIX}${answer}`;

/** The person's answer in a clarification's result (the whole result when it is not one: an older row's). */
export const answerOfResult = (result: string): string =>
  result.startsWith(PREFIX) ? result.slice(PREFIX.length) : result;
