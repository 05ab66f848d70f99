// Emoji names as GitLab knows them. GitLab's names are EmojiOne's shortnames of its gemojione
// era (`thumbsup`, `slight_smile`, `flag_us`, `100`), with aliases (`+1`, `-1`, `satisfied`)
// stored under the canonical name. emoji-toolkit is EmojiOne's maintained successor (JoyPixels):
// its alpha codes are those names, its aliases cover GitLab's, and it keeps up with Unicode.
import { createRequire } from "node:module";

interface AlphaCode {
  alpha_code: string;
  /** "|"-separated, each in colons; "" when none */
  aliases: string;
}

/**
 * JoyPixels 3.0 gave these emoji new primary alpha codes (listed in emoji-toolkit's alpha-code
 * changelog); GitLab kept the EmojiOne 2 names. Skin-tone variants (`_tone1`..`_tone5`) follow
 * their base name; both names are accepted.
 */
const GITLAB_NAME_OF: Record<string, string> = {
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

const stripColons = (code: string) => code.replace(/^:|:$/g, "");

function gitlabName(primary: string): string {
  const [, base, tone = ""] = /^(.*?)(_tone[1-5])?$/.exec(primary)!;
  const renamed = GITLAB_NAME_OF[base!];
  return renamed ? `${renamed}${tone}` : primary;
}

/** Every accepted name (primary alpha code or alias) -> the name GitLab stores. */
function buildIndex(): Map<string, string> {
  const require = createRequire(import.meta.url);
  const codes = require("emoji-toolkit/extras/alpha-codes/eac.json") as Record<string, AlphaCode>;
  const entries = Object.values(codes).map(({ alpha_code, aliases }) => {
    const primary = stripColons(alpha_code);
    const others = aliases ? aliases.split("|").map(stripColons) : [];
    const canonical = gitlabName(primary);
    return { names: [primary, ...others, canonical], canonical };
  });
  const index = new Map<string, string>();
  // primary codes first: an alias never shadows another emoji's own name
  for (const { names, canonical } of entries) index.set(names[0]!, canonical);
  for (const { names, canonical } of entries) for (const name of names) if (!index.has(name)) index.set(name, canonical);
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
