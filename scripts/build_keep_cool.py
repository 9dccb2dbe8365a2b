"""Build decks/keep-cool.csv from the hand-written word list below.

Build-time tool only: it needs `pip install wordfreq`, which the game itself
never imports. Steps:
1. clean the candidates (lowercase letters, at least 4 letters, no repeats);
2. rank them by how common they are in English, using wordfreq's Zipf frequency
   (a log scale: 7 is "the", 3 is a word seen about once per million words);
3. keep 400 of them: when the list is longer, an evenly spaced sample of the
   ranked list, so the deck still runs from the most familiar to the rarest;
4. cut those 400 into 10 bands of 40 words: band 1, the most familiar words,
   becomes line 1 of every face, band 10, the rarest, becomes line 10;
5. deal each band over the 40 faces (20 cards x red/blue) with a fixed seed,
   re-dealing a word to another face when it would share a root with a word
   already on that card (one word inside the other, or the same first 5 letters).

Run:  python scripts/build_keep_cool.py [--out decks/keep-cool.csv] [--report]
The output is deterministic: the same list and wordfreq version give the same file.
"""
from __future__ import annotations

import argparse
import csv
import random
import sys
from dataclasses import dataclass
from pathlib import Path

CARDS = 20
FACES = ("red", "blue")
LINES = 10
WORDS_NEEDED = CARDS * len(FACES) * LINES  # 400
MIN_LETTERS = 4
SHARED_PREFIX = 5
SEED = 2004  # any fixed number; it only decides which face a word lands on

# Concrete, guessable, singular common nouns, grouped only to make the list easy
# to read and extend. Order does not matter: frequency decides the line.
CANDIDATES = """
animals:
horse tiger zebra camel rabbit mouse snake eagle shark whale dolphin monkey donkey
sheep goat chicken duck goose swan frog turtle lizard spider beetle butterfly wasp
moth snail worm parrot pigeon crow raven penguin ostrich giraffe elephant hippo
rhino kangaroo koala panda gorilla leopard cheetah lion wolf bear moose squirrel
hedgehog badger beaver otter walrus octopus squid crab lobster shrimp oyster
jellyfish starfish salmon trout goldfish flamingo peacock pelican vulture falcon
hamster puppy kitten pony bull lamb piglet toad mosquito grasshopper ladybug
dragonfly scorpion raccoon skunk porcupine armadillo platypus llama buffalo bison
crocodile alligator chameleon iguana tortoise seagull sparrow woodpecker
hummingbird toucan stork heron canary rooster dinosaur caterpillar slug bumblebee

food:
apple banana orange lemon grape cherry peach mango melon pineapple strawberry
coconut avocado tomato potato carrot onion garlic pepper cucumber pumpkin lettuce
cabbage broccoli spinach mushroom bean olive bread butter cheese cake cookie pizza
pasta rice soup salad sandwich burger sausage bacon steak honey sugar
pancake waffle donut muffin chocolate candy popcorn pretzel noodle dumpling taco
burrito sushi omelette yogurt cereal biscuit croissant bagel toast jelly peanut
almond walnut cinnamon vanilla ginger radish celery asparagus zucchini eggplant
kiwi apricot raspberry blueberry lime papaya lollipop marshmallow meatball lasagna
pudding custard milkshake lemonade coffee juice milk wine beer ketchup mustard
mayonnaise popsicle cupcake

home and things:
table chair sofa lamp clock mirror pillow blanket window door curtain carpet desk
shelf drawer candle vase bottle plate bowl spoon fork knife kettle toaster oven
fridge sink bathtub shower towel soap toothbrush toothpaste comb razor bucket
broom ladder hammer nail screw wrench drill shovel rake hose fence gate roof
chimney lock wallet purse umbrella backpack suitcase basket envelope stamp pencil
eraser ruler notebook book newspaper magazine camera phone computer keyboard
television radio guitar piano violin drum trumpet flute harp trombone saxophone
accordion banjo tambourine xylophone ball kite doll puzzle balloon crayon shirt
dress skirt jacket coat sweater scarf glove sock shoe boot sandal belt button
zipper necklace ring bracelet earring watch crown helmet mask wheel bicycle truck
train airplane boat ship rocket tractor taxi ambulance helicopter submarine canoe
kayak skateboard scooter wagon anchor compass telescope microscope magnet battery
lantern tent hammock flag trophy medal coin diamond pearl feather rope chain
needle thread thimble sponge bandage thermometer stethoscope wheelchair globe
calendar hourglass whistle bell sword shield arrow cannon tissue napkin apron
spatula ladle whisk grater teapot saucer tray blender microwave dishwasher
vacuum iron hanger wardrobe cupboard cushion doormat mailbox doorbell padlock
snowman trampoline seesaw swing sled paperclip stapler calculator
robot toothpick matchstick cradle crib pacifier tricycle surfboard parachute

places:
school hospital church library museum airport farm forest beach island mountain
river lake ocean desert jungle volcano cave valley waterfall garden park market
bakery pharmacy restaurant hotel prison castle palace stadium theater cinema
circus harbor village city office kitchen bathroom bedroom cemetery temple
factory laboratory canyon glacier swamp meadow cliff pond playground barn
lighthouse skyscraper igloo pyramid bridge tower windmill fountain attic garage
balcony cellar tunnel highway

jobs and people:
doctor nurse teacher farmer pilot chef baker butcher dentist lawyer judge
firefighter soldier sailor pirate cowboy astronaut artist painter singer dancer
actor clown magician waiter plumber carpenter mechanic electrician gardener
fisherman hunter king queen prince princess knight wizard witch postman cashier
librarian scientist engineer architect photographer journalist detective referee
surgeon barber hairdresser tailor jeweler priest nanny janitor lifeguard shepherd
blacksmith mermaid giant

nature:
tree flower rose tulip daisy sunflower cactus leaf grass acorn pinecone snowflake
rainbow cloud thunder lightning storm tornado rock pebble moon star planet comet
iceberg puddle seed branch fire smoke bamboo coral seaweed palm icicle avalanche

body:
hand nose finger elbow knee tooth heart brain skeleton skull beard mustache
eyebrow thumb
"""


@dataclass(frozen=True)
class RankedWord:
    """A candidate and its Zipf frequency (higher is more familiar)."""

    word: str
    zipf: float


def candidate_words(text: str = CANDIDATES) -> list[str]:
    """The words of the list above, without group labels, in first-seen order."""
    words: list[str] = []
    for line in text.splitlines():
        if line.rstrip().endswith(":"):
            continue
        words.extend(line.split())
    return words


def check_candidates(words: list[str]) -> list[str]:
    """Problems that must be fixed in the hand-written list (empty when fine)."""
    problems = []
    seen: set[str] = set()
    for word in words:
        if not (word.isascii() and word.isalpha() and word.islower()):
            problems.append(f"'{word}': lowercase letters a-z only")
        if len(word) < MIN_LETTERS:
            problems.append(f"'{word}': shorter than {MIN_LETTERS} letters")
        if word in seen:
            problems.append(f"'{word}': listed twice")
        seen.add(word)
    return problems


def rank_by_frequency(words: list[str]) -> list[RankedWord]:
    """Most familiar first; ties broken alphabetically so the order is stable."""
    try:
        from wordfreq import zipf_frequency
    except ImportError:
        sys.exit("wordfreq is needed to build the deck: pip install wordfreq")
    ranked = [RankedWord(word, zipf_frequency(word, "en")) for word in words]
    return sorted(ranked, key=lambda r: (-r.zipf, r.word))


def pick_evenly(ranked: list[RankedWord], count: int = WORDS_NEEDED) -> list[RankedWord]:
    """`count` words spread evenly over the ranked list, keeping its first and last."""
    if len(ranked) <= count:
        return list(ranked)
    step = (len(ranked) - 1) / (count - 1)
    return [ranked[round(i * step)] for i in range(count)]


def share_root(a: str, b: str) -> bool:
    """True when two words look like one root: one inside the other, or same 5-letter start."""
    return a in b or b in a or a[:SHARED_PREFIX] == b[:SHARED_PREFIX]


def deal_bands(ranked: list[RankedWord], seed: int = SEED) -> dict[tuple[int, str], list[str]]:
    """(card, face) -> its 10 words, line 1 first; band n of 40 words fills line n."""
    chosen = pick_evenly(ranked)
    slots = [(card, face) for card in range(1, CARDS + 1) for face in FACES]
    faces: dict[tuple[int, str], list[str]] = {slot: [] for slot in slots}
    rng = random.Random(seed)
    per_band = len(slots)
    for band in range(LINES):
        words = [r.word for r in chosen[band * per_band:(band + 1) * per_band]]
        _deal_one_band(words, slots, faces, rng)
    return faces


def _deal_one_band(words: list[str], slots: list[tuple[int, str]],
                   faces: dict[tuple[int, str], list[str]], rng: random.Random) -> None:
    """Give every slot one word of the band; retry with a new shuffle on a clash."""
    for _ in range(1000):
        order = words[:]
        rng.shuffle(order)
        placed = _place_without_clash(order, slots, faces)
        if placed is not None:
            for slot, word in placed.items():
                faces[slot].append(word)
            return
    raise SystemExit("could not deal a band without two words of one root on a card")


def _place_without_clash(words: list[str], slots: list[tuple[int, str]],
                         faces: dict[tuple[int, str], list[str]]
                         ) -> dict[tuple[int, str], str] | None:
    """Greedy: each word goes to the first free slot whose card has no word of its root."""
    free = list(slots)
    placed: dict[tuple[int, str], str] = {}
    for word in words:
        for slot in free:
            card_words = _card_words(slot[0], faces) + [w for s, w in placed.items()
                                                        if s[0] == slot[0]]
            if not any(share_root(word, other) for other in card_words):
                placed[slot] = word
                free.remove(slot)
                break
        else:
            return None
    return placed


def _card_words(card: int, faces: dict[tuple[int, str], list[str]]) -> list[str]:
    return [word for face in FACES for word in faces[(card, face)]]


def write_csv(faces: dict[tuple[int, str], list[str]], path: Path) -> None:
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["card", "face", "line", "word"])
        for (card, face), words in sorted(faces.items(),
                                          key=lambda item: (item[0][0], FACES.index(item[0][1]))):
            for line, word in enumerate(words, start=1):
                writer.writerow([card, face, line, word])


def band_report(ranked: list[RankedWord]) -> str:
    """One line per difficulty line: its Zipf range and a few example words."""
    lines = []
    per_band = WORDS_NEEDED // LINES
    for band in range(LINES):
        group = ranked[band * per_band:(band + 1) * per_band]
        examples = ", ".join(r.word for r in group[:4])
        lines.append(f"line {band + 1:2}: zipf {group[-1].zipf:.2f} to {group[0].zipf:.2f}"
                     f"  e.g. {examples}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default_out = Path(__file__).resolve().parent.parent / "decks" / "keep-cool.csv"
    parser.add_argument("--out", type=Path, default=default_out)
    parser.add_argument("--report", action="store_true", help="print the Zipf range of each line")
    args = parser.parse_args(argv)

    words = candidate_words()
    problems = check_candidates(words)
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 1
    if len(words) < WORDS_NEEDED:
        print(f"only {len(words)} candidates; {WORDS_NEEDED} are needed", file=sys.stderr)
        return 1
    ranked = rank_by_frequency(words)
    write_csv(deal_bands(ranked), args.out)
    print(f"wrote {args.out}: {WORDS_NEEDED} of {len(words)} candidates")
    if args.report:
        print(band_report(pick_evenly(ranked)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
