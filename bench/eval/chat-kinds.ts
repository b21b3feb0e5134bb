/**
 * Long multi-session conversations (LoCoMo-like): two people chat over many dated sessions, laid
 * out as Claude Code transcripts (the first person is the user, the second the assistant). Facts
 * about each person come up in particular sessions, and questions ask about them by name, so the
 * evidence is often spread over sessions and the speaker matters.
 */
import { CITIES, PEOPLE } from '../corpus/lexicon.js';
import type { Random } from '../corpus/prng.js';
import type { Project } from '../corpus/world.js';
import { type Corpus, DAY, HOUR, type SessionBuilder } from './builder.js';

const SMALL_USER = [
  'How was your weekend?',
  'Sorry I went quiet, the week got away from me.',
  'It rained the whole day here, I stayed in with tea.',
  'Did you end up watching that series you mentioned?',
  'I tried a new ramen place near the station, not bad at all.',
  'My neighbour is renovating again, drilling from eight in the morning.',
  'I finally cleaned out the garage, found my old skateboard.',
  'We had friends over for dinner on Saturday, I made lasagne.',
  'Traffic this morning was awful, took me an hour to get in.',
  'I have been trying to read more before bed instead of scrolling.',
  'The heating broke on Tuesday so it was a chilly couple of days.',
  'My mum called, she says hi by the way.',
  'I am thinking about repainting the living room green.',
  'Got a parking ticket yesterday, completely my fault.',
  'Anything fun planned for the holidays?',
];
const SMALL_ASSISTANT = [
  'Pretty quiet, mostly caught up on sleep and laundry.',
  'Ha, same here, the days just disappear.',
  'That sounds cosy honestly, I love a rainy day indoors.',
  'I did! Binged four episodes in one go, no regrets.',
  'Oh nice, send me the name, I am always looking for good noodles.',
  'Ugh, that would drive me mad. Earplugs?',
  'No way, do you still remember how to ride it?',
  'Lasagne is always a winner, I need your recipe.',
  'The roadworks by the bridge have made everything worse lately.',
  'Good call, I sleep so much better when I leave the phone in the kitchen.',
  'Brr, hope it is fixed now!',
  'Say hi back from me!',
  'Green could look great with the wooden floor.',
  'Oof, that is annoying, those fines are steep.',
  'Nothing big, maybe a few days with family.',
];

const PETS: [string, string[]][] = [
  ['dog', ['beagle', 'border collie', 'rescue greyhound', 'corgi']],
  ['cat', ['tabby', 'Maine Coon', 'black shorthair']],
  ['rabbit', ['lop-eared bunny', 'Dutch rabbit']],
  ['parrot', ['African grey', 'cockatiel']],
];
const PET_NAMES = [
  'Biscuit',
  'Pepper',
  'Mochi',
  'Juniper',
  'Waffles',
  'Ziggy',
  'Clementine',
  'Rocket',
  'Hazel',
  'Noodle',
];
const SIGHTS = [
  'the old harbour',
  'the night market',
  'the botanical garden',
  'the cathedral',
  'the coastal walk',
  'the food hall',
];
const HOBBIES: [string, string][] = [
  ['pottery', 'a wobbly but usable bowl'],
  ['watercolour painting', 'a small landscape of the lake'],
  ['rock climbing', 'my first orange route at the gym'],
  ['salsa dancing', 'a whole routine without stepping on anyone'],
  ['woodworking', 'a little bookshelf for the hallway'],
  ['sourdough baking', 'a loaf with a proper open crumb'],
];
const COMPANIES = [
  'Northwind',
  'Bluepeak',
  'Lumen Labs',
  'Harbor Health',
  'Kestrel Logistics',
  'Fernway',
  'Oakridge Bank',
];
const ROLES = ['team lead', 'senior designer', 'product manager', 'data analyst', 'head of operations'];
const RACES = ['city half marathon', '10K charity run', 'trail marathon', 'sprint triathlon'];
const BOOKS: [string, string, string][] = [
  ['The Lighthouse Keeper', 'Mara Quinn', 'a woman restoring an island lighthouse'],
  ['Salt and Silver', 'Dev Anand', 'two rival fishing families'],
  ['Small Engines', 'Ruth Okafor', 'a mechanic who rebuilds her hometown'],
  ['The Long Orchard', 'Tomas Berg', 'three generations running an apple farm'],
];
const ADVICE: [string, string][] = [
  ['sleep', 'no screens for an hour before bed and the same wake-up time even at weekends'],
  ['back pain', 'ten minutes of stretching every morning and raising the monitor to eye level'],
  ['stress at work', 'a fifteen-minute walk at lunch with the phone left at the desk'],
];

interface Conversation {
  a: string;
  b: string;
  sessions: SessionBuilder[];
}

const article = (w: string) => `${/^[aeiou]/i.test(w) ? 'an' : 'a'} ${w}`;

function chatProject(base: Project, a: string, b: string): Project {
  const name = `${a}-and-${b}`.toLowerCase();
  return { ...base, name, root: `/home/dev/chats/${name}` };
}

function smallTalk(r: Random, k: number): [string, string][] {
  return Array.from({ length: k }, () => {
    const i = r.int(SMALL_USER.length);
    return [SMALL_USER[i], r.chance(0.7) ? SMALL_ASSISTANT[i] : r.pick(SMALL_ASSISTANT)] as [string, string];
  });
}

/** Build `count` conversations of `sessions` sessions each, with their questions. */
export function conversationSet(c: Corpus, base: readonly Project[], count: number, sessions: number): void {
  const r = c.random('conversations');
  const people = r.shuffle([...PEOPLE]);
  for (let ci = 0; ci < count; ci++) {
    const [a, b] = [people[2 * ci], people[2 * ci + 1]];
    const p = chatProject(r.pick(base), a, b);
    let t = Date.UTC(2026, r.range(0, 2), r.range(1, 20)) + r.range(17, 21) * HOUR;
    const conv: Conversation = { a, b, sessions: [] };
    for (let si = 0; si < sessions; si++) {
      const s = c.session(p, t);
      s.user(`Hey ${b}! ${r.pick(SMALL_USER)}`).assistant(`Hi ${a}! ${r.pick(SMALL_ASSISTANT)}`);
      s.chat(smallTalk(r, r.range(1, 4)));
      conv.sessions.push(s);
      t += r.range(6, 20) * DAY + r.range(-2, 2) * HOUR;
    }
    const at = (lo: number, hi: number) => conv.sessions[Math.min(sessions - 1, r.range(lo, hi))];
    const q = (question: string, marks: string[]) => c.ask({ kind: 'conversation', question, marks });
    const m = (name: string) => `chat-${ci}-${name}`;
    const n = sessions;

    // A's pet: adopted early, mentioned again later.
    const [species, breeds] = r.pick(PETS);
    const pet = r.pick(PET_NAMES);
    at(0, 3)
      .user(
        `Big news: we adopted ${article(r.pick(breeds))} last weekend! The kids named her ${pet}.`,
        m('pet'),
      )
      .assistant(`Oh that is wonderful, ${a}! Send pictures of ${pet}!`);
    at(n - 4, n - 1)
      .user(`${pet} chewed through my phone charger again, I have bought three this month.`, m('pet2'))
      .assistant('Ha! Maybe hide the cables behind the sofa.');
    q(r.pick([`What is the name of ${a}'s ${species}?`, `What did ${a} call the new ${species}?`]), [
      m('pet'),
    ]);
    q(`What has ${pet} been chewing?`, [m('pet2')]);
    // B's trips: three cities over the conversation.
    const cities = r.shuffle([...CITIES]).slice(0, 3);
    const tripSessions = [r.range(1, 3), r.range(5, 7), r.range(9, n - 1)];
    cities.forEach((city, k) => {
      const s = conv.sessions[Math.min(n - 1, tripSessions[k])];
      s.user(r.pick(SMALL_USER)).assistant(
        `Just got back from ${city}, ${r.pick(SIGHTS)} was unreal. ${r.pick(['Jet lag is brutal though.', 'I already want to go back.', 'Ate far too much.'])}`,
        { mark: m(`trip${k}`) },
      );
      if (k === 1) q(`When did ${b} go to ${city}?`, [m(`trip${k}`)]);
    });
    q(r.pick([`Which cities has ${b} travelled to?`, `Where has ${b} been on trips?`]), [
      m('trip0'),
      m('trip1'),
      m('trip2'),
    ]);
    // A's hobby: started, then a first result.
    const [hobby, result] = r.pick(HOBBIES);
    const hs = r.range(2, 5);
    conv.sessions[hs]
      .user(
        `I signed up for a ${hobby} class at the community centre, the first lesson was on Tuesday.`,
        m('hobby'),
      )
      .assistant('That sounds like so much fun, how was the teacher?');
    conv.sessions[Math.min(n - 1, hs + r.range(3, 6))]
      .user(`Guess what, I finished ${result}!`, m('hobby2'))
      .assistant('I am so impressed, you have really stuck with it.');
    q(r.pick([`What new hobby did ${a} take up?`, `What class did ${a} sign up for?`]), [m('hobby')]);
    q(`What has ${a} made or achieved in ${hobby}?`, [m('hobby2')]);
    // B's job: unhappy early, a new offer later.
    const [old, next] = r.shuffle([...COMPANIES]).slice(0, 2);
    const role = r.pick(ROLES);
    at(0, 4)
      .user(r.pick(SMALL_USER))
      .assistant(
        `Honestly work at ${old} has been draining, the commute is ninety minutes each way and nobody listens in meetings.`,
        { mark: m('job1') },
      );
    at(7, n - 2)
      .user(r.pick(SMALL_USER))
      .assistant(`I accepted the offer from ${next}! Starting as ${role} next month.`, { mark: m('job2') });
    q(r.pick([`Where is ${b} going to work next?`, `Which company hired ${b}?`]), [m('job2')]);
    q(`Why was ${b} unhappy at ${old}?`, [m('job1')]);
    // A's race: registered, training, finished.
    const race = r.pick(RACES);
    const rs = r.range(1, 4);
    conv.sessions[rs]
      .user(
        `I registered for the ${race}, it is in ${r.pick(['May', 'June', 'September', 'October'])}. Slightly terrified.`,
        m('race1'),
      )
      .assistant('You will be great, start slow and build up.');
    conv.sessions[Math.min(n - 1, rs + 3)]
      .user(`Ran ${r.range(8, 18)} km this morning without stopping, a personal best!`, m('race2'))
      .assistant('That is huge progress!');
    conv.sessions[Math.min(n - 1, rs + 7)]
      .user(`I did it! Finished the ${race} in ${r.range(1, 3)} hours ${r.range(2, 58)} minutes.`, m('race3'))
      .assistant(`Congratulations ${a}, that is amazing!`);
    q(`What race is ${a} training for?`, [m('race1')]);
    q(`How did ${a}'s ${race} go?`, [m('race3')]);
    q(`How has ${a}'s running progressed over time?`, [m('race2'), m('race3')]);
    // B recommends a book.
    const [title, author, theme] = r.pick(BOOKS);
    at(2, n - 2)
      .user(r.pick(SMALL_USER))
      .assistant(`You have to read ${title} by ${author}, it is about ${theme}. I could not put it down.`, {
        mark: m('book'),
      });
    q(r.pick([`What book did ${b} recommend to ${a}?`, `Which novel did ${b} tell ${a} to read?`]), [
      m('book'),
    ]);
    // A's sister's wedding: announced, then happened.
    const sister = r.pick(PEOPLE.filter((x) => x !== a && x !== b));
    const wcity = r.pick(CITIES.filter((x) => !cities.includes(x)));
    const ws = r.range(1, 5);
    conv.sessions[ws]
      .user(`My sister ${sister} is getting married in ${wcity} this summer!`, m('wed1'))
      .assistant('Congratulations to her! Are you giving a speech?');
    conv.sessions[Math.min(n - 1, ws + r.range(4, 7))]
      .user('The wedding was beautiful, we danced until two in the morning.', m('wed2'))
      .assistant('It sounds like a perfect day.');
    q(`Where is ${a}'s sister getting married?`, [m('wed1')]);
    q(`How was the wedding of ${a}'s sister?`, [m('wed2')]);
    // B's advice on A's problem.
    const [problem, advice] = r.pick(ADVICE);
    at(3, n - 2)
      .user(`I have been struggling with ${problem} lately, any tips?`)
      .assistant(`Try ${advice}; it helped me a lot.`, { mark: m('advice') });
    q(`What did ${b} suggest to ${a} for ${problem}?`, [m('advice')]);
    // Distractors: the other person touches the same subjects.
    at(0, n - 1)
      .user(r.pick(SMALL_USER))
      .assistant(`My cousin just got ${article(species)} too, she will not stop posting photos.`);
    at(0, n - 1)
      .user(`A colleague of mine is off to ${cities[0]} next week, any tips?`)
      .assistant('Go early to beat the crowds.');
    at(0, n - 1)
      .user(`Work has been fine, no complaints.`)
      .assistant('Glad to hear it.');
    for (const s of conv.sessions) s.chat(smallTalk(r, r.range(4, 8)));
  }
}
