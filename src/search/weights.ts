/**
 * Every weight of transcript ranking, named, in one place (search/rank.ts applies them). Scores
 * are mixed linearly on a 0–1 scale: the step's own relevance (lexical BM25 over its text and
 * neighbour field, plus its neighbours' relevance), normalised by the query's best step, plus
 * its session's relevance, a role or speaker prior, a date prior and a small recency tie-break.
 * Pseudo-relevance feedback and reciprocal rank fusion were measured not worth it (issue 10).
 */
export const WEIGHTS = {
  /** BM25 term-frequency saturation and length normalisation. */
  k1: 1.2,
  b: 0.75,
  /**
   * Neighbours, each read from the neighbour field or the adjacent candidate, whichever says more
   * (both measure the same turn: never both): a reply right after a matching prompt scores at
   * least `answerFollows` of it (it is usually the answer); any step gains `neighbourScore` of the
   * turns around it.
   */
  neighbourScore: 0.3,
  answerFollows: 0.9,
  /** A prompt that is itself a question holds no answer: its own score × this. */
  questionTurn: 0.8,
  /**
   * Two adjacent words of the query found side by side in the text ("inventory sync", not
   * "stock sync"): BM25 of the pair with this share of its rarer word's idf.
   */
  phrase: 0.75,
  /**
   * A word related to a query term (search/expansion.ts) in a text lacking the term: this share
   * of the lesser of the two words' idf. Low, so a step holding the question's own words stays
   * above one holding their relatives.
   */
  related: 0.5,
  /** Average characters of a neighbour field (two turn heads). */
  contextAvgChars: 450,
  /** Lift for a step holding all of the query's weight: × (1 + coverage · share²). */
  coverage: 0.3,
  /** Steps apart that still count as adjacent turns (tool calls and reasoning sit between). */
  neighbourSpan: 8,
  /** Session relevance: its best steps' lexical scores, each later one discounted. */
  sessionDecay: 0.5,
  sessionSteps: 4,
  /**
   * Lift for a session whose steps hold between them the query's words: × (1 + this · share²)
   * (the right one of near-identical sessions is the one that also names the topic).
   */
  sessionCoverage: 1,
  /** Weight of the session score (0–1) beside the step score (0–1). */
  session: 0.3,
  /** Prior for the role the question asks about ("what did I ask", "what did you suggest"). */
  role: 0.15,
  /** Prior for a step spoken by a person the question names. */
  speaker: 0.12,
  /**
   * Prior for a session where the people the question names are spoken to or speak ("Hey Nils!",
   * "Maria: …"), times the share of them found there.
   */
  participants: 0.8,
  /** A person's name in the question weighs this share of its idf as a word. */
  nameTerm: 0.5,
  /**
   * Prior for a session of a project the question names ("in tidewatch", a folder named after a
   * person it names) or is asked from (an agent's working folder): search/projects.ts.
   */
  project: 0.3,
  /** A why-question: a step that gives a reason ("because…") gains this share of its lexical score. */
  reason: 0.3,
  /**
   * A why-question: in each session, the best step giving a reason about the topic is lifted just
   * above the session's best step when it scores at least this share of it (search/rank.ts
   * promoteReasons; 1 or more: never).
   */
  reasonReach: 0.6,
  /**
   * A natural-language question's plain word found inside an identifier, path or branch name
   * (`perf/drop-redis-cache`, `redis_url`, `buildAccountRows`) counts this share of an occurrence
   * in prose, in the step's own text; keyword searches count every occurrence fully.
   */
  identifierWord: 0.4,
  /** A step inside the span the question names, and a session overlapping it. */
  dateStep: 0.12,
  dateSession: 0.08,
  /** Recency tie-break: at most this much, halving every `recencyHalfLifeDays`. */
  recency: 0.02,
  recencyHalfLifeDays: 30,
  /** How much each kind of step's lexical score counts (tool output is most bytes, least value). */
  kind: {
    prompt: 1.0,
    response: 1.0,
    summary: 0.9,
    reasoning: 0.6,
    tool_call: 0.55,
    tool_result: 0.35,
  } as Record<string, number>,
  /**
   * A step whose text a better-ranked step in another session repeats keeps this share of its
   * score for each copy above it (forks, resumed sessions, a line said twice).
   */
  copyDecay: 0.8,
  /**
   * Closeness in meaning (`tapedeck embed`'s vectors): a step gains this × (its cosine with the
   * question − the candidates' mean) × the best words-only score × (1 − the best coverage of the
   * question's words), rank.ts `addMeaning`.
   */
  meaning: 2,
  /** Hits from one session in a flat list before other sessions get a turn. */
  perThread: 5,
} as const;
