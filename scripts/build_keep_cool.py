"""Build decks/keep-cool.csv, the full Keep Cool word deck, from the word lists below.

The boxed game has 120 cards, each with a red and a blue face of 10 lines: 2,400
different words, line 1 the most familiar and lines 8 to 10 the hardest. This
script makes a deck of that size, from lists of concrete nouns written by hand.

Build-time tool: it needs `pip install wordfreq` (never imported by the game) and
pocketsphinx (a project dependency, for its pronouncing dictionary). Steps:
1. clean the candidates: lowercase a-z, at least 4 letters, each listed once
   (a problem here stops the build: fix the list);
2. drop the words of decks/unfit-words.txt (slurs, and words of one country); the
   words the speech recognizer cannot hear: those without a pronunciation in
   pocketsphinx's English dictionary or in grammars/pronunciations.dict; and the
   words that sound exactly like an English word a player may say, names included
   ("sari" / "sorry", "wine" / "whine", "cypress" / "Cyprus": a stray word at a turn
   would win the card): at Zipf 2.5 or above and either common (3.5 or above) or at
   most 1.5 rarer than the candidate, so "apple" stays beside the name "Appel"
   (partyhost/deckcheck.py homophone_counts), or an everyday word of
   decks/clue-words.txt ("hoarse" / "horse"); or
   like another candidate (both "flour" and "flower", "colonel" and "kernel": each is
   a fair clue for something, and would win the other): the list of frequent words
   is written beside the deck as frequent-words.txt for `decks check`;
3. rank the rest by how common they are in English, using wordfreq's Zipf frequency
   (a log scale: 7 is "the", 3 is a word seen about once per million words);
4. fill the lines in rank order, 240 words a line (120 cards x red and blue), the
   most familiar words on line 1. Each word goes to the face of the line holding
   fewer words, or to the other face when it would sound like a word already there
   (same pronunciation or one phone apart, voice/understanding/vocabulary.py); a word that sounds
   like a word on both faces moves to the next line (it is tried first there), and
   is dropped only after line 10. Each face of a line is then dealt over the 120
   cards (a matching, shuffled with a fixed seed) so that no card holds two words of
   one root (partyhost/deckcheck.py share_root); a word no card can take is
   dropped. Moved and dropped words are replaced by the next words of the ranking.
   The words of decks/hard-words.txt (a casual player may not know them, though a
   name or another sense ranks them high) wait for line 8, the first hard line;
5. the rarest candidates left over are not used;
6. check the result with the validator's word, full-deck and speech checks, and
   write it only when it passes.

Run:  python scripts/build_keep_cool.py [--out decks/keep-cool.csv] [--report]
The output is deterministic: the same lists, wordfreq version and dictionary give
the same file, byte for byte. The shipped file was built with wordfreq 3.1.1 and
pocketsphinx 5.1.1.
"""

from __future__ import annotations

import argparse
import csv
import random
import re
import sys
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from host.decks import WordCard  # noqa: E402
from voice.understanding import vocabulary  # noqa: E402

CARDS = 120
FACES = ("red", "blue")
LINES = 10
PER_FACE_LINE = CARDS  # one word per card on each face and line
PER_LINE = CARDS * len(FACES)  # 240
WORDS_NEEDED = PER_LINE * LINES  # 2,400
MIN_LETTERS = 4
SEED = 2004  # any fixed number; it only decides which card a word lands on
BUILT_WITH_WORDFREQ = "3.1.1"

# Slurs and words that mean another thing, or nothing, in another country are left out:
# decks/unfit-words.txt lists them with their reasons (step 2).
# Concrete, guessable, singular common nouns, grouped only to make the lists easy
# to read and extend. Order does not matter: frequency decides the line. A word
# goes under the first group it fits. Words the recognizer's dictionary lacks are
# listed anyway (step 2 drops them); adding their pronunciation to
# grammars/pronunciations.dict would let them in.
CANDIDATES = """
animals:
horse tiger zebra camel rabbit mouse snake monkey donkey sheep goat elephant giraffe
hippo rhino kangaroo koala panda gorilla leopard cheetah lion wolf bear moose squirrel
hedgehog badger beaver otter walrus llama buffalo bison raccoon skunk porcupine
armadillo platypus puppy kitten pony bull lamb piglet hamster gerbil ferret weasel mole
chipmunk opossum jaguar panther cougar lynx bobcat hyena jackal coyote deer reindeer
antelope gazelle caribou calf boar stallion mare foal mule sloth anteater chimpanzee
orangutan baboon lemur meerkat mongoose wombat wallaby dolphin whale seal porpoise
manatee narwhal orca alpaca dromedary warthog tapir okapi mammoth mastodon poodle
beagle terrier bulldog spaniel collie greyhound dachshund husky retriever chihuahua
dalmatian rottweiler sheepdog bloodhound mastiff boxer ermine mink marten polecat vole
shrew lemming hare bunny heifer bullock gopher marmot groundhog aardvark
pangolin chinchilla eagle duck goose swan parrot pigeon crow raven penguin ostrich
flamingo peacock pelican vulture falcon hawk robin sparrow seagull woodpecker
hummingbird toucan stork heron canary rooster chicken chick turkey pheasant quail
partridge grouse dove finch wren starling blackbird thrush magpie cardinal bluebird
oriole lark nightingale kingfisher cuckoo crane egret ibis albatross puffin gull
cormorant condor buzzard kestrel osprey kite kiwi cockatoo macaw parakeet budgie
lovebird mockingbird sandpiper plover dodo duckling gosling cockerel roadrunner warbler
chickadee nuthatch shark octopus squid crab lobster shrimp oyster jellyfish starfish
salmon trout goldfish tuna herring sardine anchovy mackerel halibut flounder carp
catfish pike perch stingray swordfish marlin piranha seahorse clam mussel scallop snail
slug sponge coral urchin barnacle prawn crayfish krill minnow guppy tadpole frog toad
newt salamander turtle tortoise beluga plankton goby sturgeon haddock tilapia barracuda
lizard crocodile alligator chameleon iguana gecko cobra python viper rattlesnake
anaconda dinosaur dragon spider beetle butterfly wasp moth worm mosquito grasshopper
ladybug dragonfly scorpion caterpillar bumblebee hornet termite cricket cockroach flea
tick louse firefly centipede millipede earthworm locust cicada mantis aphid maggot
larva cocoon beehive spiderweb leech gnat midge weevil colt mustang grizzly puma stag
filly impala mallard tarantula corgi dingo honeybee ladybird cuttlefish bullfrog ocelot
woodchuck ibex bonobo skylark goldfinch conch seashell hound serpent reptile rodent
insect mammal bird fowl pooch steed gander racehorse peregrine tern abalone songbird
longhorn roebuck tomcat crustacean marsupial silkworm flycatcher arachnid gibbon
marmoset tamarin adder mamba stoat dormouse plaice snapper grouper bream mullet kipper
dugong nautilus anemone whelk limpet cockle mite glowworm damselfly earwig ptarmigan
kookaburra hornbill lapwing curlew moorhen bittern dunnock jackdaw chaffinch bullfinch
blackcap goldcrest harrier whippet mongrel lapdog wolfhound chrysalis polliwog froglet
axolotl skink terrapin wildcat lioness tigress echidna muskrat mandrill macaque

food and drink:
apple banana orange lemon grape cherry peach mango melon pineapple strawberry coconut
avocado tomato potato carrot onion garlic pepper cucumber pumpkin lettuce cabbage
broccoli spinach mushroom bean olive bread butter cheese cake cookie pizza pasta rice
soup salad sandwich burger sausage bacon steak honey sugar pancake waffle donut muffin
chocolate candy popcorn pretzel noodle dumpling taco burrito sushi omelette yogurt
cereal croissant bagel toast peanut almond walnut cinnamon vanilla ginger
radish celery asparagus zucchini eggplant apricot raspberry blueberry lime papaya
lollipop marshmallow meatball lasagna custard milkshake lemonade coffee juice
milk wine beer ketchup mustard mayonnaise popsicle cupcake pear plum prune raisin
grapefruit tangerine clementine nectarine watermelon cantaloupe pomegranate cranberry
blackberry gooseberry currant lychee guava fruit persimmon quince rhubarb artichoke
beet beetroot turnip parsnip leek shallot chive scallion kale chard sprout cauliflower
corn lentil chickpea soybean tofu courgette aubergine okra fennel cress arugula endive
sweetcorn chili jalapeno paprika pickle gherkin herb basil parsley thyme rosemary sage
mint oregano dill coriander cilantro nutmeg clove saffron salt vinegar flour yeast
dough crust pastry tart brownie scone crumpet cracker wafer eclair meringue macaroon
fudge toffee caramel licorice gumdrop truffle praline nougat marzipan jellybean
sorbet sherbet gelato smoothie cocoa espresso cappuccino latte soda cola cider whiskey
vodka brandy champagne cocktail lager tequila martini broth stew chowder curry risotto
paella spaghetti macaroni ravioli gnocchi pesto sauce gravy salsa guacamole hummus
syrup marmalade margarine cream mozzarella parmesan feta omelet yolk salami pepperoni
hotdog hamburger cheeseburger meatloaf cutlet kebab barbecue beef pork veal venison
jerky fish sashimi caviar fillet nacho enchilada tortilla quesadilla fajita tamale
churro falafel pita samosa wonton ramen kimchi teriyaki crepe porridge oatmeal granola
muesli cornflake baguette loaf crouton panini toastie calzone quiche pasty casserole
goulash gumbo jambalaya pistachio cashew hazelnut chestnut pecan macadamia acorn sesame
sunflower seed sultana gumball jawbreaker candyfloss meat berry vegetable dessert snack
seafood cheesecake stuffing topping frosting icing mousse trifle sundae brisket mince
mutton sirloin drumstick wishbone chutney coleslaw sauerkraut frankfurter bratwurst
pastrami prosciutto calamari strudel tiramisu shortcake cornbread brioche flan parfait
eggnog butterscotch applesauce spud honeydew ricotta fondue bisque naan shortbread
biscotti cannoli fishcake cumin turmeric cardamom peppermint spearmint horseradish
wasabi anise caraway chamomile ginseng cayenne millet buckwheat sorghum quinoa couscous
semolina bran cornmeal sherry margarita mojito tonic seltzer mocha liqueur vermouth
absinthe stout mead patty roast crumble fritter souffle ragout stroganoff bonbon
breadstick macaron flapjack penne tortellini linguine fettuccine vermicelli tempura
miso korma tikka chapati pakora vinaigrette treacle molasses passionfruit mandarin
satsuma kumquat elderberry mulberry marrow gourd frittata teacake focaccia ciabatta
pierogi flatbread hoagie tostada chorizo gammon bubblegum spice water teabag lozenge
peppercorn breadcrumb crumb slice

plants:
tree flower rose tulip daisy cactus leaf grass pinecone bamboo palm seaweed pine maple
birch willow beech cedar cypress spruce redwood sequoia poplar aspen sycamore magnolia
dogwood holly mistletoe hawthorn juniper eucalyptus baobab mangrove bonsai lily orchid
daffodil violet pansy poppy iris lotus carnation marigold dandelion buttercup bluebell
lavender jasmine hibiscus geranium petunia begonia azalea camellia chrysanthemum dahlia
peony lilac honeysuckle hyacinth crocus snowdrop primrose foxglove thistle clover
shamrock fern moss lichen toadstool vine reed bulrush nettle heather gorse bramble
shrub bush hedge straw wheat barley maize cotton flax hemp sugarcane kelp aloe
tumbleweed wisteria bouquet wreath garland petal stem thorn root bark twig branch trunk
stump sapling seedling blossom pollen nectar hickory mahogany teak laurel hazel myrtle
acacia cottonwood larch linden rowan alder banyan yucca mimosa gardenia snapdragon
wildflower rosebud rhododendron verbena wallflower milkweed sagebrush catnip bracken
conifer evergreen palmetto mesquite alfalfa cornflower lupin zinnia aster gladiolus
amaryllis poinsettia edelweiss waterlily sweetpea

nature and places:
mountain river lake ocean desert jungle volcano cave valley waterfall beach island prairie
forest canyon glacier swamp meadow cliff pond hill savanna tundra marsh lagoon harbor
coast shore cove inlet fjord estuary stream creek brook geyser oasis dune plateau mesa
ridge slope gorge ravine crater reef atoll peninsula archipelago continent iceberg floe
rainforest woodland grove orchard vineyard pasture riverbank waterhole puddle quarry
cavern grotto pebble rock stone boulder sand gravel clay soil dirt dust lava magma
crystal diamond ruby emerald sapphire pearl opal amber jade topaz quartz granite marble
slate limestone chalk flint coal gold silver copper iron steel bronze brass zinc
platinum aluminum nickel sulfur rainbow cloud thunder lightning storm tornado hurricane
blizzard snowflake snowball hailstone raindrop icicle mist frost rain snow wind breeze
moon star planet comet meteor asteroid galaxy nebula avalanche earthquake tsunami tide
whirlpool waterspout flame smoke ember spark bonfire campfire rooftop hilltop hillside
backyard courtyard battlefield junkyard schoolyard churchyard barnyard farmyard
shipyard dockyard lumberyard cornfield seashore seabed sandbar ledge bayou wetland
chasm burrow nest lair hive anthill molehill foothill mountainside waterfront steppe
moorland moor knoll mound gully conker driftwood islet thunderstorm raincloud snowstorm
sandstorm hailstorm rainstorm windstorm snowdrift snowbank dewdrop teardrop sunbeam
moonbeam starlight stalactite stalagmite fossil geode nugget

body:
hand nose finger elbow knee tooth heart brain skeleton skull beard mustache eyebrow
thumb head face mouth tongue cheek chin neck throat shoulder wrist fist knuckle
fingernail chest belly stomach navel waist thigh ankle heel foot toenail spine lung
liver kidney bladder vein artery muscle bone tendon nerve blood skin hair freckle
dimple eyelash eyelid eyeball pupil forehead temple nostril earlobe scalp ponytail
pigtail braid whisker sideburn goatee molar fang tusk horn antler hoof claw talon beak
feather wing tail gill shell mane wool udder snout

home:
house home room kitchen bathroom bedroom attic cellar basement garage balcony porch
patio terrace hallway corridor staircase stair doorway door window wall floor ceiling
roof chimney fireplace gate fence garden lawn driveway mailbox letterbox doorbell
doormat doorknob keyhole lock latch hinge shutter curtain drape carpet tile floorboard
banister railing table chair sofa couch armchair stool bench desk bunk crib cradle
hammock mattress pillow cushion blanket quilt duvet sheet pillowcase bedspread
headboard wardrobe closet cupboard cabinet dresser drawer shelf bookcase bookshelf
sideboard lamp lampshade lantern chandelier candle candlestick lightbulb bulb
flashlight mirror clock alarm vase picture painting poster calendar photograph radiator
heater thermostat boiler furnace stove oven fridge refrigerator freezer microwave
toaster kettle blender mixer dishwasher washer dryer vacuum hanger sink faucet bathtub
bath shower toilet towel soap shampoo toothbrush toothpaste comb hairbrush razor
hairdryer perfume lipstick deodorant lotion basket bucket broom dustpan duster
wastebasket trashcan plunger clothesline clothespin doily coaster placemat tablecloth
napkin bookend paperweight doorstop coatrack hatstand footstool nightstand bassinet
playpen highchair bedpan washboard washtub scourer squeegee candlewick wick tinderbox
stopper drain vent duct valve spout clip mantel mantelpiece poker bedsheet
eiderdown photo wallpaper stepladder toolbelt dustbin arbor pergola hosepipe flowerpot
planter packet cooler icebox pump pannier

kitchen:
plate bowl glass saucer teacup teapot pitcher bottle carton spoon fork knife chopstick
ladle spatula whisk grater peeler corkscrew colander sieve strainer funnel tray platter
saucepan skillet cauldron thermos flask lunchbox toothpick skewer cork apron mitt
potholder dishcloth timer breadbox eggcup teaspoon tablespoon goblet chalice tumbler
wineglass decanter carafe ramekin

tools:
hammer nail screw screwdriver wrench spanner drill chisel shovel spade rake trowel
pitchfork wheelbarrow ladder hose sprinkler mower lawnmower hatchet crowbar mallet
sledgehammer pickaxe clamp sandpaper tape ruler toolbox workbench bolt rivet staple
stapler glue string rope twine cable chain wire hook pulley lever wedge anvil forge
sickle scythe plow harrow pruner trimmer chainsaw jackhammer bulldozer digger excavator
tractor forklift paintbrush putty grindstone whetstone magnet compass protractor
calculator stopwatch hourglass sundial barometer thermometer telescope microscope
periscope magnifier lens prism beaker tube pipette burner tripod syringe needle thimble
thread bobbin spool yarn button zipper buckle pincushion loom wheel machine padlock
keychain keyring

clothing:
shirt dress skirt jacket coat sweater scarf glove sock shoe boot sandal belt blouse
cardigan hoodie sweatshirt waistcoat blazer suit tuxedo bowtie necktie
cravat collar cuff sleeve pocket hood cape cloak poncho raincoat overcoat parka anorak
windbreaker dungarees stocking nightgown nightdress robe bathrobe gown slipper sneaker
loafer moccasin clog galosh stiletto beret beanie bonnet helmet crown tiara turban
bandana headband hairband earmuff mitten gauntlet wristband wristwatch bracelet bangle
necklace pendant locket ring earring brooch cufflink anklet choker medallion amulet
wallet handbag backpack rucksack satchel briefcase suitcase duffel tote pouch
umbrella parasol veil mask monocle eyepatch kimono sari toga kilt sarong tunic corset
bodice petticoat frock uniform costume swimsuit bikini wetsuit leotard tracksuit
jumpsuit onesie diaper nappy sombrero fedora bowler trilby balaclava visor boater

vehicles:
bicycle bike truck lorry train airplane plane aeroplane boat ship rocket taxi ambulance
helicopter submarine canoe kayak skateboard scooter wagon tram minivan
limousine convertible sedan hatchback pickup motorcycle motorbike moped tricycle
unicycle tandem sled sleigh toboggan snowmobile snowplow tank cart carriage
chariot stagecoach rickshaw gondola ferry yacht sailboat speedboat rowboat dinghy
raft barge tugboat steamboat steamer catamaran trawler freighter tanker cruiser
battleship warship frigate destroyer galleon schooner lifeboat houseboat hovercraft
seaplane glider airship blimp balloon parachute spaceship spacecraft satellite shuttle
capsule locomotive caboose monorail elevator escalator dragster campervan caravan
trailer camper wheelchair stroller pram pushchair surfboard bodyboard paddleboard
windsurfer snowboard skate

buildings and places:
school hospital church library museum airport farm park bakery pharmacy restaurant
hotel prison castle palace stadium theater cinema circus village city town office
cemetery factory laboratory playground barn lighthouse skyscraper igloo pyramid bridge
tower windmill fountain tunnel highway shop store supermarket mall boutique
drugstore bookstore bookshop butcher florist barbershop salon laundromat launderette
cafe diner bistro pizzeria canteen cafeteria tavern saloon nightclub casino arcade
alley gymnasium arena racetrack velodrome pool aquarium planetarium observatory gallery
studio workshop warehouse mill sawmill brewery distillery winery creamery greenhouse
nursery kindergarten college university campus classroom dormitory courthouse courtroom
jail station firehouse embassy consulate bank mailroom runway hangar dock pier wharf
jetty marina canal reservoir aqueduct viaduct overpass underpass roundabout
crosswalk lane avenue boulevard street road motorway freeway turnpike path
footpath trail cathedral chapel mosque synagogue shrine monastery convent abbey priory
pagoda minaret steeple spire belfry turret fortress fort citadel mansion manor villa
chateau cottage cabin shack shed bungalow chalet lodge ranch farmhouse silo granary
kennel doghouse henhouse coop pigsty hutch birdhouse treehouse tent teepee wigwam yurt
apartment condo penthouse loft tenement cubicle clinic infirmary hospice morgue
mortuary graveyard tomb crypt mausoleum grave tombstone headstone coffin
amphitheater auditorium hall ballroom monument statue obelisk sphinx campsite
campground sandpit sandbox seesaw swing slide carousel rollercoaster funfair fairground
watermill farmstead homestead marketplace seaport heliport spaceport railway depot
skatepark bandstand pavilion boathouse summerhouse outhouse storehouse hothouse
bathhouse jailhouse schoolhouse steakhouse roadhouse guesthouse

jobs and people:
doctor nurse teacher farmer pilot chef baker dentist lawyer judge firefighter soldier
sailor pirate cowboy astronaut artist painter singer dancer actor actress clown
magician waiter waitress plumber carpenter mechanic electrician gardener fisherman
hunter king queen prince princess knight wizard witch postman mailman cashier librarian
scientist engineer architect photographer journalist detective referee surgeon barber
hairdresser tailor jeweler priest nanny janitor lifeguard shepherd blacksmith mermaid
giant policeman policewoman sheriff constable guard bodyguard explorer inventor
professor student headmaster umpire athlete wrestler jockey cyclist swimmer skier
surfer diver climber runner sprinter goalkeeper quarterback batter golfer gymnast
acrobat juggler ventriloquist puppeteer mime comedian musician drummer guitarist
pianist violinist conductor composer poet author writer novelist editor reporter
announcer newsreader weatherman cameraman sculptor weaver knitter seamstress cobbler
shoemaker locksmith watchmaker glassblower miner lumberjack woodcutter logger forester
ranger zookeeper veterinarian paramedic midwife pharmacist optician psychiatrist
therapist anesthetist hygienist secretary receptionist clerk accountant banker teller
broker salesman shopkeeper grocer greengrocer fishmonger milkman paperboy courier
chauffeur driver trucker cabbie porter bellboy butler maid housekeeper bartender
barista sommelier hostess usher steward stewardess captain admiral colonel sergeant
cadet navigator cosmonaut monk bishop pope vicar rabbi imam preacher missionary pilgrim
hermit nomad goatherd cowherd rancher cowgirl gaucho samurai ninja gladiator squire
jester minstrel bard troubadour emperor empress pharaoh sultan duke duchess baron
countess lady mayor senator governor president ambassador diplomat coastguard baby
toddler child girl teenager grandmother grandfather grandma grandpa mother father
sister brother aunt uncle cousin nephew niece twin bride groom widow tourist traveler
passenger hitchhiker hiker mountaineer skater snowboarder astronomer biologist
physicist geologist archaeologist historian merchant trader peddler vendor auctioneer
landlord tenant farmhand brewer whaler trapper poacher gamekeeper beekeeper wrangler
farrier tinker bricklayer stonemason roofer plasterer glazier welder machinist
technician programmer designer illustrator cartoonist animator stylist manicurist
pediatrician optometrist chiropractor fireman inspector warden jailer prisoner convict
burglar thief robber pickpocket smuggler bandit outlaw paratrooper archer swordsman
deputy marshal quarryman copilot skipper helmsman deckhand ferryman gondolier newsboy
caretaker landscaper barman innkeeper bellhop doorman footman governess babysitter
tutor lecturer archivist curator interpreter translator typist auditor storekeeper
dressmaker hatter milliner joiner clockmaker goldsmith silversmith builder surveyor
attorney barrister solicitor juror bailiff magistrate chieftain warrior choirboy
ringmaster ballerina soprano tenor baritone cellist trumpeter harpist organist
playwright cartographer botanist zoologist stuntman lamplighter bridesmaid busboy

fantasy:
unicorn ghost vampire zombie werewolf mummy monster goblin troll ogre fairy dwarf gnome
pixie leprechaun centaur cyclops minotaur yeti alien robot cyborg warlock sorcerer
genie angel scarecrow snowman gingerbread

music:
guitar piano violin drum trumpet flute harp trombone saxophone accordion banjo
tambourine xylophone cello viola clarinet oboe bassoon tuba bugle cornet piccolo
recorder harmonica kazoo ukulele mandolin lute lyre sitar bagpipe organ keyboard
synthesizer triangle cymbal gong bongo conga maraca castanet glockenspiel marimba
vibraphone timpani kettledrum snare whistle pipe panpipe didgeridoo harpsichord spinet
jukebox gramophone phonograph turntable microphone speaker amplifier headphone earphone
metronome baton

sport and toys:
ball doll puzzle crayon trampoline domino dice jigsaw rattle puppet marionette
boomerang slingshot catapult pinwheel hoop hobbyhorse dollhouse playhouse sandcastle
basketball baseball volleyball racket puck shuttlecock goalpost backboard
scoreboard trophy medal ribbon rosette podium dartboard bullseye target arrow quiver
snorkel flipper paddle reel lure bait harpoon dumbbell barbell kettlebell treadmill
cleat joker pawn rook

office, school and tech:
pencil eraser notebook book newspaper magazine envelope stamp letter postcard
parcel package sticker paperclip pushpin thumbtack highlighter marker blackboard
chalkboard whiteboard easel canvas palette sellotape folder binder diary planner
clipboard notepad sketchbook scrapbook dictionary encyclopedia atlas globe textbook
workbook passport ticket receipt coupon voucher banknote coin piggybank computer laptop
tablet monitor screen printer scanner webcam camera phone telephone smartphone
cellphone radio television antenna dish charger battery plug socket joystick headset
projector router modem disk cassette typewriter photocopier pager drone laser hologram

medical:
bandage plaster crutch stretcher splint sling pill vitamin medicine stethoscope inhaler
ointment scalpel gauze swab pacifier retainer

history:
sword shield spear cannon cannonball musket dagger mace lance javelin trident saber
rapier cutlass scimitar crossbow trebuchet armor chainmail breastplate tomahawk holster
scabbard sheath scepter throne treasure jewel scroll parchment quill inkwell drawbridge
moat portcullis dungeon

things:
flag bell cane tissue anchor crate barrel cask pail hamper sack vault strongbox knot
matchstick lighter silk velvet satin lace denim leather suede linen tweed corduroy
burlap nylon paper cardboard wood timber plank beam lumber plywood brick cement mortar
cobblestone charcoal petrol gasoline kerosene paraffin detergent bleach paint matchbox
ashtray banner pennant signpost billboard noticeboard postbox sculpture birdbath plaque
badge emblem card brush cloth clasp shoelace cage bubble confetti streamer firework
sparkler gift tire axle engine motor pedal handlebar saddle windscreen windshield wiper
headlight bumper tool rail trap pole radar booth basin cord brake locker generator
ditch grill cone ramp altar strap stereo pottery trench bunker harness maze sewer
turbine motel cockpit mosaic cartridge buffet canopy dart mast knob mural leash wand
gadget bead fiddle hostel clubhouse hurdle rink buzzer gutter bazaar souvenir collage
cooker ornament muzzle airfield sunscreen pendulum sauna nozzle pantry pulpit chute
handkerchief horseshoe machete stairway chime shipwreck hearth vial barricade canister
foyer yoke bookmark cleaver streetcar winch dispenser dugout scaffold kiosk tarp
loudspeaker extinguisher stairwell lavatory intercom veranda microchip arrowhead
figurine keypad skylight stencil blindfold hearse bridle megaphone lapel manhole
minibus gazebo hydrant awning muffler trinket tassel trapeze archway gavel gravestone
headdress abacus tinsel flagpole handcuff turtleneck trellis futon recliner smock
sequin shackle gyroscope hacksaw utensil sandbag girder rafter pillar column arch dome
drainpipe downpipe dormer gable mailbag knapsack haversack holdall coffer beanbag
deckchair lounger windbreak weathervane birdcage trough manger hayloft paddock corral
aviary candelabra sconce nightlight tapestry inkpot ballpoint sharpener bullhorn siren
foghorn buoy lifebuoy lifejacket lifebelt rudder tiller sail keel hull porthole galley
binnacle sextant flare beacon pinata helm rack hairpin hairclip barrette scrunchie
mascara eyeliner powder blade aftershave cologne floss mouthwash toupee hairpiece
knickknack keepsake memento snowshoe whirligig kaleidoscope spacesuit constellation
unicyclist beachball sunhat sunbed boardwalk promenade esplanade dodgem turnstile
lamppost streetlight bollard curb phonebox shelter cashpoint plinth pedestal memorial
gateway battlement rampart parapet watchtower lookout armory stockade palisade foxhole
outpost garrison encampment camp hideout eyrie husk kernel grain sepal stamen pistil
frond peel rind zest pith

more (issue 42, replacing words that sound like a word at Zipf 2.5 or above):
squash fuse scar teddy jeep riverside ottoman backstage seaside abdomen porcelain poultry
backbone fungus footprint appendix dumpster doorstep fingerprint refinery wolverine torso
foliage retina fender restroom cookbook parkway ligament plaid limo propeller dashboard
foundry grinder shoreline sonar cheddar forearm seasoning pelvis cartilage veggie sash
intestine speedway compost meteorite flannel shawl rosary walkway embankment shellfish
spleen pancreas showroom supernova cashmere wrinkle atrium kiln gurney lakeside spindle
basilica silverware airliner seatbelt talisman fawn tailgate cutlery armpit blister chimp
possum nutcracker pimple haystack scab tabby collarbone wart sunroof jawbone fingertip
crawfish yoyo riverbed kneecap biplane washcloth tonsil cheekbone camembert carport
deadbolt camisole jetliner mousepad hubcap bluejay earplug dumptruck luggage livestock
countryside lobby sanctuary
"""


from partyhost import deckcheck as validator  # noqa: E402

DROP_NO_PRONUNCIATION = "not in the pronouncing dictionary"
DROP_UNFIT = "a slur somewhere, or a word of one country (decks/unfit-words.txt)"
DROP_HOMOPHONE = "sounds exactly like a frequent English word or another candidate"
DROP_SOUNDS_ALIKE = "sounds like a word on both faces of line 10"
DROP_ROOT = "shares a root with a word on every card that had room"
DROP_UNUSED = "rarer than the 2,400 words used"
DROP_REASONS = (DROP_UNFIT, DROP_NO_PRONUNCIATION, DROP_HOMOPHONE, DROP_SOUNDS_ALIKE, DROP_ROOT, DROP_UNUSED)
# The homophone rule and its thresholds live in partyhost/deckcheck.py (homophone_counts,
# HOMOPHONE_ZIPF, COMMON_ZIPF, RARER_BY), which `decks check` uses too.


@dataclass(frozen=True)
class RankedWord:
    """A candidate and its Zipf frequency (higher is more familiar)."""

    word: str
    zipf: float


@dataclass
class Deal:
    """The dealt deck, and what happened to every candidate that is not in it."""

    faces: dict[tuple[int, str], list[str]]
    """(card, face) -> its 10 words, line 1 first."""
    lines: list[list[RankedWord]]
    """The 240 words of each line, most familiar first."""
    dropped: dict[str, list[str]] = field(default_factory=lambda: {r: [] for r in DROP_REASONS})
    moved: list[tuple[str, int, int]] = field(default_factory=list)
    """(word, the line its frequency gave it, the line it is on): words moved down
    because they sound like a word on both faces of a line."""
    held: list[str] = field(default_factory=list)
    """Words a casual player may not know (decks/hard-words.txt), kept to lines 8-10."""


def candidate_words(text: str = CANDIDATES) -> list[str]:
    """The words of the lists above, without group labels, in first-seen order."""
    words: list[str] = []
    for line in text.splitlines():
        if line.rstrip().endswith(":"):
            continue
        words.extend(line.split())
    return words


def check_candidates(words: list[str]) -> list[str]:
    """Problems that must be fixed in the hand-written lists (empty when fine)."""
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


def common_words(zipf: float = validator.HOMOPHONE_ZIPF) -> list[str]:
    """wordfreq's English words at `zipf` or above, most frequent first, that are words:
    no digits or "u.s", no letters or abbreviations without a vowel ("st", "tv", which
    sound like "street")."""
    from wordfreq import iter_wordlist, zipf_frequency

    words = []
    for word in iter_wordlist("en"):
        if zipf_frequency(word, "en") < zipf:
            break
        if re.fullmatch(r"[a-z]+(?:'[a-z]+)?", word) and re.search(r"[aeiouy]", word):
            words.append(word)
    return words


def with_a_homophone(words: list[str], dictionary: vocabulary.Dictionary) -> dict[str, float]:
    """The words that share a pronunciation with another word of the dictionary, each
    with its Zipf frequency: only they can sound like a deck word (which must be in the
    dictionary), so only they are written for `decks check` (about 11,000 of the 51,000)."""
    from wordfreq import zipf_frequency

    said_as: dict[tuple[str, ...], int] = {}
    for word in dictionary:
        for phones in vocabulary.pronunciations(word, dictionary):
            said_as[phones] = said_as.get(phones, 0) + 1
    return {
        word: zipf_frequency(word, "en")
        for word in words
        if any(said_as.get(phones, 0) > 1 for phones in vocabulary.pronunciations(word, dictionary))
    }


def write_frequent(words: dict[str, float], path: Path) -> None:
    header = (
        f"# The English words at Zipf {validator.HOMOPHONE_ZIPF} or above by wordfreq {BUILT_WITH_WORDFREQ} "
        "(iter_wordlist, words only, names included) that sound like\n# another word of the "
        "pronouncing dictionary, each with its Zipf frequency, written by scripts/build_keep_cool.py.\n"
        "# No Keep Cool word may sound exactly like one of them that a player may say "
        "(partyhost decks check:\n# deckcheck.homophone_counts).\n"
    )
    path.write_text(header + "".join(f"{word}\t{zipf:.2f}\n" for word, zipf in words.items()), encoding="utf-8")


def without_homophones(
    ranked: list[RankedWord],
    dictionary: vocabulary.Dictionary,
    frequent: dict[str, float],
    clue: set[str] | frozenset[str] = frozenset(),
) -> tuple[list[RankedWord], list[str]]:
    """The ranking without words that sound exactly like a frequent word a player may say
    (deckcheck.homophone_counts, or a word of `clue`, decks/clue-words.txt) or like another
    candidate (both of a pair go: the other is a word players know, so a clue); and the
    words taken out."""
    words = [r.word for r in ranked]
    alike = {word for word, _ in validator.said_homophones(words, frequent, dictionary, clue)}
    alike |= {word for word, _ in validator.homophones(words, words, dictionary)}
    return [r for r in ranked if r.word not in alike], [r.word for r in ranked if r.word in alike]


def wordfreq_version() -> str | None:
    try:
        from importlib.metadata import version

        return version("wordfreq")
    except Exception:  # not installed, or no metadata: rank_by_frequency will say so
        return None


def deal(
    ranked: list[RankedWord],
    dictionary: vocabulary.Dictionary,
    seed: int = SEED,
    hard: set[str] | frozenset[str] = frozenset(),
) -> Deal:
    """Fill line 1 to 10 from the ranking (most familiar first); see the module doc.
    Words of `hard` (decks/hard-words.txt) wait for the first hard line."""
    rng = random.Random(seed)
    result = Deal(faces={(card, face): [] for card in range(1, CARDS + 1) for face in FACES}, lines=[])
    pending = deque(r for r in ranked if r.word not in hard)
    held = [r for r in ranked if r.word in hard]
    first_line: dict[str, int] = {}
    for line in range(1, LINES + 1):
        if line == validator.FIRST_HARD_LINE:  # the held words join the ranking in their place
            pending = deque(sorted([*pending, *held], key=lambda r: (-r.zipf, r.word)))
        chosen: dict[str, list[RankedWord]] = {face: [] for face in FACES}
        no_room: list[RankedWord] = []
        while True:
            _fill_line(chosen, pending, dictionary, no_room)
            placed, unplaced = _place_line(chosen, result.faces, rng)
            if not unplaced:
                break
            for face, ranked_word in unplaced:
                chosen[face].remove(ranked_word)
                result.dropped[DROP_ROOT].append(ranked_word.word)
        for face in FACES:
            for card, word in placed[face].items():
                result.faces[(card, face)].append(word)
        result.lines.append(sorted(chosen["red"] + chosen["blue"], key=lambda r: (-r.zipf, r.word)))
        result.moved += [
            (r.word, first_line[r.word], line)
            for face in FACES
            for r in chosen[face]
            if first_line.get(r.word, line) != line
        ]
        for r in no_room:
            first_line.setdefault(r.word, line)
        if line == LINES:
            result.dropped[DROP_SOUNDS_ALIKE] += [r.word for r in no_room]
        else:
            pending.extendleft(reversed(no_room))  # tried first on the next line
    result.moved.sort(key=lambda move: (move[1], move[2], move[0]))
    result.dropped[DROP_UNUSED].extend(r.word for r in pending)
    result.held = sorted(r.word for r in held)
    return result


def _fill_line(
    chosen: dict[str, list[RankedWord]],
    pending: deque[RankedWord],
    dictionary: vocabulary.Dictionary,
    no_room: list[RankedWord],
) -> None:
    """Top up both faces of a line to 120 words, next words of the ranking first;
    words that sound like a word on both faces go to no_room."""
    while any(len(words) < PER_FACE_LINE for words in chosen.values()):
        if not pending:
            raise SystemExit(f"not enough candidates: add words to the lists ({WORDS_NEEDED} are needed)")
        candidate = pending.popleft()
        room = [
            face
            for face in FACES
            if len(chosen[face]) < PER_FACE_LINE
            and not any(
                vocabulary.sounds_alike(candidate.word, other.word, validator.CONFUSABLE_PHONES, dictionary)
                for other in chosen[face]
            )
        ]
        if not room:
            no_room.append(candidate)
            continue
        face = min(room, key=lambda f: (len(chosen[f]), FACES.index(f)))
        chosen[face].append(candidate)


def _place_line(
    chosen: dict[str, list[RankedWord]], faces: dict[tuple[int, str], list[str]], rng: random.Random
) -> tuple[dict[str, dict[int, str]], list[tuple[str, RankedWord]]]:
    """Give each card one red and one blue word of the line, no root shared on a card.

    A bipartite matching (words to cards) per face, each tried in a shuffled order so
    words land on cards at random. Returns the placement and the words left out.
    """
    placed: dict[str, dict[int, str]] = {}
    unplaced: list[tuple[str, RankedWord]] = []
    for face in FACES:
        on_card = {
            card: [w for f in FACES for w in faces[(card, f)]] + [placed[f][card] for f in placed if card in placed[f]]
            for card in range(1, CARDS + 1)
        }

        def allowed(word: str, card: int, on_card: dict[int, list[str]] = on_card) -> bool:
            return not any(validator.share_root(word, other) for other in on_card[card])

        words = [r.word for r in chosen[face]]
        rng.shuffle(words)
        cards = list(range(1, CARDS + 1))
        rng.shuffle(cards)
        owner: dict[int, str] = {}  # card -> word
        for word in words:
            free = next((card for card in cards if card not in owner and allowed(word, card)), None)
            if free is not None:
                owner[free] = word
            elif not _augment(word, cards, allowed, owner, set()):
                unplaced.append((face, next(r for r in chosen[face] if r.word == word)))
        placed[face] = {card: word for card, word in owner.items()}
    return placed, unplaced


def _augment(word: str, cards: list[int], allowed, owner: dict[int, str], visited: set[int]) -> bool:
    """Kuhn's augmenting path: find this word a card, moving earlier words if needed."""
    for card in cards:
        if card in visited or not allowed(word, card):
            continue
        visited.add(card)
        if card not in owner or _augment(owner[card], cards, allowed, owner, visited):
            owner[card] = word
            return True
    return False


def as_cards(faces: dict[tuple[int, str], list[str]]) -> list[WordCard]:
    return [WordCard(card, tuple(faces[(card, "red")]), tuple(faces[(card, "blue")])) for card in range(1, CARDS + 1)]


def write_csv(faces: dict[tuple[int, str], list[str]], path: Path) -> None:
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["card", "face", "line", "word"])
        for card in range(1, CARDS + 1):
            for face in FACES:
                for line, word in enumerate(faces[(card, face)], start=1):
                    writer.writerow([card, face, line, word])


def line_report(lines: list[list[RankedWord]], moved: list[tuple[str, int, int]]) -> str:
    """One row per line: the Zipf range of the words its rank gave it, the words moved
    in from the line above, and the four most familiar words."""
    rows = ["| line | Zipf range | moved down to this line | most familiar words |", "|---|---|---|---|"]
    for number, words in enumerate(lines, start=1):
        moved_in = [word for word, start, end in moved if end == number]
        ranked = [r for r in words if r.word not in moved_in]
        examples = ", ".join(r.word for r in ranked[:4])
        rows.append(
            f"| {number} | {ranked[-1].zipf:.2f} to {ranked[0].zipf:.2f} | {', '.join(moved_in) or '-'} | {examples} |"
        )
    return "\n".join(rows)


def drop_report(total: int, dropped: dict[str, list[str]]) -> str:
    rows = [f"{total} candidates"]
    for reason in DROP_REASONS:
        words = dropped[reason]
        shown = ", ".join(words[:8]) + (", ..." if len(words) > 8 else "")
        rows.append(f"  dropped {len(words):4}: {reason}" + (f" ({shown})" if words else ""))
    rows.append(f"  used    {total - sum(len(w) for w in dropped.values()):4}")
    return "\n".join(rows)


def move_report(moved: list[tuple[str, int, int]]) -> str:
    listed = ", ".join(f"{word} ({start} to {end})" for word, start, end in moved)
    return f"{len(moved)} words moved down a line, sounding like a word on both faces: {listed}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "decks" / "keep-cool.csv")
    parser.add_argument(
        "--report", action="store_true", help="print what each filter dropped and the Zipf range of each line"
    )
    args = parser.parse_args(argv)

    words = candidate_words()
    problems = check_candidates(words)
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 1
    installed = wordfreq_version()
    if installed and installed != BUILT_WITH_WORDFREQ:
        print(
            f"warning: wordfreq {installed} is installed; the shipped deck was built with "
            f"{BUILT_WITH_WORDFREQ}, so the lines may come out differently",
            file=sys.stderr,
        )
    try:
        dictionary = vocabulary.load_dictionary()
    except vocabulary.VocabularyError as error:
        print(error, file=sys.stderr)
        return 1
    unfit = validator.unfit_words()
    heard = [word for word in words if word in dictionary and word not in unfit]
    frequent = with_a_homophone(common_words(), dictionary)
    clue = validator.clue_words()
    ranked, same_sound = without_homophones(rank_by_frequency(heard), dictionary, frequent, set(clue))
    result = deal(ranked, dictionary, hard=set(validator.hard_words()))
    result.dropped[DROP_UNFIT] = [word for word in words if word in unfit]
    result.dropped[DROP_NO_PRONUNCIATION] = vocabulary.missing_words(
        [word for word in words if word not in unfit], dictionary
    )
    result.dropped[DROP_HOMOPHONE] = same_sound

    cards = as_cards(result.faces)
    errors = (
        validator.check_words(cards)
        + validator.check_full_deck(cards)
        + validator.check_unfit(cards)
        + validator.check_hard_words(cards)
        + validator.check_speech(cards, dictionary)
        + validator.check_homophones(cards, dictionary, frequent, clue)
    )
    if errors:
        print("\n".join(["the dealt deck fails the validator:"] + errors), file=sys.stderr)
        return 1
    write_csv(result.faces, args.out)
    write_frequent(frequent, args.out.with_name(validator.FREQUENT_WORDS_FILE))
    print(f"wrote {args.out}: {CARDS} cards, {WORDS_NEEDED} words from {len(words)} candidates")
    if args.report:
        print(drop_report(len(words), result.dropped))
        print(move_report(result.moved))
        print(
            f"{len(result.held)} words held to line {validator.FIRST_HARD_LINE} or later "
            f"(decks/hard-words.txt): {', '.join(result.held)}"
        )
        print(line_report(result.lines, result.moved))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
