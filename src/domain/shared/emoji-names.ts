// Emoji names as GitLab knows them. GitLab's names are EmojiOne's shortnames of its gemojione
// era (`thumbsup`, `slight_smile`, `flag_us`, `100`), with aliases (`+1`, `-1`, `satisfied`)
// stored under the canonical name. emoji-toolkit is EmojiOne's maintained successor (JoyPixels):
// its alpha codes are those names, its aliases and Unicode names cover GitLab's aliases (the few
// differences are listed below), and it keeps up with Unicode.
import { createRequire } from "node:module";

interface AlphaCode {
  /** Unicode's (CLDR) name, e.g. "thumbs up: light skin tone" */
  name: string;
  alpha_code: string;
  /** "|"-separated, each in colons; "" when none */
  aliases: string;
}

/**
 * Emoji whose emoji-toolkit primary alpha code is not GitLab's name: JoyPixels 3.0's renames
 * (listed in emoji-toolkit's alpha-code changelog), and later ones found against GitLab's alias
 * table (fixtures/emojis/aliases.json). Skin-tone variants (`_tone1`..`_tone5`) follow their base
 * name; both names are accepted.
 */
const GITLAB_NAME_OF: Record<string, string> = {
  mobile_phone: "iphone",
  person_with_veil: "bride_with_veil",
  person_in_tuxedo: "man_in_tuxedo",
  keycap_ten: "ten",
  blue_circle: "large_blue_circle",
  rainbow_flag: "gay_pride_flag",
  lady_beetle: "beetle",
  england: "flag_england",
  scotland: "flag_scotland",
  wales: "flag_wales",
  united_nations: "flag_united_nations",
  person_golfing: "golfer",
  person_wearing_turban: "man_with_turban",
  man_with_chinese_cap: "man_with_gua_pi_mao",
  people_with_bunny_ears_partying: "dancers",
  person_running: "runner",
  person_walking: "walking",
  person_getting_haircut: "haircut",
  person_getting_massage: "massage",
  person_shrugging: "shrug",
  person_facepalming: "face_palm",
  people_wrestling: "wrestlers",
  police_officer: "cop",
  detective: "spy",
  guard: "guardsman",
  blond_haired_person: "person_with_blond_hair",
  person_pouting: "person_with_pouting_face",
  person_gesturing_no: "no_good",
  person_gesturing_ok: "ok_woman",
  person_tipping_hand: "information_desk_person",
  person_raising_hand: "raising_hand",
  person_bowing: "bow",
  person_fencing: "fencer",
  person_surfing: "surfer",
  person_rowing_boat: "rowboat",
  person_swimming: "swimmer",
  person_bouncing_ball: "basketball_player",
  person_lifting_weights: "lifter",
  person_biking: "bicyclist",
  person_mountain_biking: "mountain_bicyclist",
  person_playing_water_polo: "water_polo",
  person_playing_handball: "handball",
  person_juggling: "juggling",
  person_doing_cartwheel: "cartwheel",
};

/** GitLab's aliases that emoji-toolkit lacks altogether (mostly newer Unicode names). */
const GITLAB_ALIASES: Record<string, string> = {
  un: "flag_united_nations",
  flag_turkiye: "flag_tr",
  person_with_skullcap: "man_with_gua_pi_mao",
  person_in_suit_levitating: "levitate",
  bullseye: "dart",
  water_pistol: "gun",
  laptop: "computer",
  multiply: "heavy_multiplication_x",
  plus: "heavy_plus_sign",
  minus: "heavy_minus_sign",
  divide: "heavy_division_sign",
  red_question_mark: "question",
  keycap_hash: "hash",
};

const stripColons = (code: string) => code.replace(/^:|:$/g, "");

/**
 * GitLab also takes the snake-cased Unicode name as an alias (`hundred_points`, `thumbs_up`,
 * `flag_united_states`, `waving_hand_light_skin_tone`, `men_s_room`, `keycap_10`).
 */
const unicodeAlias = (name: string) =>
  name
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_|_$/g, "");

function gitlabName(primary: string): string {
  const [, base, tone = ""] = /^(.*?)(_tone[1-5])?$/.exec(primary)!;
  const renamed = GITLAB_NAME_OF[base!];
  return renamed ? `${renamed}${tone}` : primary;
}

/** Every accepted name (primary alpha code, alias or Unicode name) -> the name GitLab stores. */
function buildIndex(): Map<string, string> {
  const require = createRequire(import.meta.url);
  const codes = require("emoji-toolkit/extras/alpha-codes/eac.json") as Record<string, AlphaCode>;
  const entries = Object.values(codes).map(({ name, alpha_code, aliases }) => {
    const primary = stripColons(alpha_code);
    const others = aliases ? aliases.split("|").map(stripColons) : [];
    const canonical = gitlabName(primary);
    return { names: [primary, ...others, canonical], canonical, unicodeName: unicodeAlias(name) };
  });
  const index = new Map<string, string>();
  const add = (name: string, canonical: string) => index.has(name) || index.set(name, canonical);
  // primary codes first, then aliases, then Unicode names: none shadows a name ranked before it
  for (const { names, canonical } of entries) index.set(names[0]!, canonical);
  for (const { names, canonical } of entries) for (const name of names) add(name, canonical);
  for (const [alias, canonical] of Object.entries(GITLAB_ALIASES)) add(alias, canonical);
  for (const { unicodeName, canonical } of entries) add(unicodeName, canonical);
  return index;
}

let index: Map<string, string> | undefined;

/** GitLab's stored name for an emoji name or alias (`+1` -> `thumbsup`), or null when unknown. */
export function canonicalEmojiName(name: string): string | null {
  index ??= buildIndex();
  return index.get(name) ?? null;
}

export const UPVOTE_NAME = "thumbsup";
export const DOWNVOTE_NAME = "thumbsdown";

/** The character and Unicode (CLDR) name of each GitLab emoji name, for rendering `:name:` in text. */
let glyphs: Map<string, { char: string; title: string }> | undefined;

function buildGlyphs(): Map<string, { char: string; title: string }> {
  const require = createRequire(import.meta.url);
  const codes = require("emoji-toolkit/extras/alpha-codes/eac.json") as Record<string, AlphaCode & { output: string }>;
  const map = new Map<string, { char: string; title: string }>();
  for (const { output, name, alpha_code } of Object.values(codes)) {
    const char = String.fromCodePoint(...output.split("-").map((hex) => parseInt(hex, 16)));
    const canonical = gitlabName(stripColons(alpha_code));
    if (!map.has(canonical)) map.set(canonical, { char, title: name });
  }
  return map;
}

/** The glyph GitLab shows for an emoji name or alias, or null when the name is unknown. */
export function emojiGlyph(name: string): { name: string; char: string; title: string } | null {
  const canonical = canonicalEmojiName(name);
  if (!canonical) return null;
  glyphs ??= buildGlyphs();
  const glyph = glyphs.get(canonical);
  return glyph ? { name: canonical, ...glyph } : null;
}
