"""A compact table of common Slack emoji shortcodes and their Unicode characters."""

from __future__ import annotations

import re
from typing import Final

# Shortcode -> character. Slack's own names (iamcal/emoji-data) for the emoji LLM replies
# and status messages use most; anything missing is shown as its ``:shortcode:``.
_TABLE: Final = """\
+1 👍|-1 👎|thumbsup 👍|thumbsdown 👎|ok_hand 👌|clap 👏|wave 👋|raised_hands 🙌|pray 🙏|muscle 💪
point_right 👉|point_left 👈|point_up 👆|point_down 👇|v ✌️|handshake 🤝|eyes 👀|brain 🧠|smile 😄
smiley 😃|grinning 😀|grin 😁|joy 😂|rofl 🤣|laughing 😆|sweat_smile 😅|wink 😉|blush 😊
slightly_smiling_face 🙂|upside_down_face 🙃|heart_eyes 😍|kissing_heart 😘|thinking_face 🤔
thinking 🤔|neutral_face 😐|expressionless 😑|no_mouth 😶|smirk 😏|unamused 😒|roll_eyes 🙄
grimacing 😬|relieved 😌|pensive 😔|sleepy 😪|sleeping 😴|mask 😷|nerd_face 🤓|sunglasses 😎
confused 😕|worried 😟|slightly_frowning_face 🙁|disappointed 😞|cry 😢|sob 😭|scream 😱
fearful 😨|cold_sweat 😰|sweat 😓|weary 😩|tired_face 😫|angry 😠|rage 😡|exploding_head 🤯
partying_face 🥳|star-struck 🤩|zany_face 🤪|shushing_face 🤫|face_with_monocle 🧐
hugging_face 🤗|innocent 😇|skull 💀|ghost 👻|robot_face 🤖|alien 👽|poop 💩|hankey 💩
see_no_evil 🙈|hear_no_evil 🙉|speak_no_evil 🙊|heart ❤️|orange_heart 🧡|yellow_heart 💛
green_heart 💚|blue_heart 💙|purple_heart 💜|black_heart 🖤|broken_heart 💔|sparkling_heart 💖
two_hearts 💕|100 💯|fire 🔥|boom 💥|sparkles ✨|star ⭐|star2 🌟|dizzy 💫|zap ⚡|snowflake ❄️
sunny ☀️|cloud ☁️|umbrella ☔|rainbow 🌈|ocean 🌊|earth_americas 🌎|globe_with_meridians 🌐
rocket 🚀|airplane ✈️|car 🚗|bike 🚲|ship 🚢|construction 🚧|rotating_light 🚨|checkered_flag 🏁
triangular_flag_on_post 🚩|tada 🎉|confetti_ball 🎊|balloon 🎈|gift 🎁|trophy 🏆|medal 🏅
first_place_medal 🥇|dart 🎯|game_die 🎲|musical_note 🎵|art 🎨|movie_camera 🎥|camera 📷|tv 📺
computer 💻|desktop_computer 🖥️|keyboard ⌨️|iphone 📱|phone ☎️|telephone_receiver 📞
battery 🔋|electric_plug 🔌|bulb 💡|flashlight 🔦|wrench 🔧|hammer 🔨|hammer_and_wrench 🛠️
gear ⚙️|nut_and_bolt 🔩|link 🔗|paperclip 📎|pushpin 📌|round_pushpin 📍|scissors ✂️|lock 🔒
unlock 🔓|key 🔑|shield 🛡️|bell 🔔|no_bell 🔕|loudspeaker 📢|mega 📣|speech_balloon 💬
thought_balloon 💭|email 📧|envelope ✉️|inbox_tray 📥|outbox_tray 📤|package 📦|mailbox 📫
memo 📝|pencil 📝|pencil2 ✏️|pen 🖊️|book 📖|books 📚|notebook 📓|bookmark 🔖|clipboard 📋
calendar 📆|date 📅|spiral_calendar_pad 🗓️|card_index 📇|file_folder 📁|open_file_folder 📂
page_facing_up 📄|bar_chart 📊|chart_with_upwards_trend 📈|chart_with_downwards_trend 📉|mag 🔍
mag_right 🔎|hourglass ⌛|hourglass_flowing_sand ⏳|stopwatch ⏱️|alarm_clock ⏰|watch ⌚
clock1 🕐|moneybag 💰|dollar 💵|credit_card 💳|gem 💎|chart 💹|bank 🏦|house 🏠|office 🏢
hospital 🏥|school 🏫|coffee ☕|tea 🍵|beer 🍺|beers 🍻|wine_glass 🍷|pizza 🍕|hamburger 🍔|cake 🍰
birthday 🎂|cookie 🍪|doughnut 🍩|apple 🍎|banana 🍌|taco 🌮|popcorn 🍿|seedling 🌱|herb 🌿
deciduous_tree 🌳|evergreen_tree 🌲|cactus 🌵|four_leaf_clover 🍀|rose 🌹|sunflower 🌻|tulip 🌷
cherry_blossom 🌸|dog 🐶|cat 🐱|mouse 🐭|rabbit 🐰|fox_face 🦊|bear 🐻|panda_face 🐼|koala 🐨
tiger 🐯|lion_face 🦁|cow 🐮|pig 🐷|frog 🐸|monkey 🐒|chicken 🐔|penguin 🐧|bird 🐦|owl 🦉
unicorn_face 🦄|bee 🐝|bug 🐛|butterfly 🦋|snail 🐌|turtle 🐢|snake 🐍|octopus 🐙|whale 🐳
dolphin 🐬|fish 🐟|crab 🦀|white_check_mark ✅|heavy_check_mark ✔️|ballot_box_with_check ☑️
x ❌|negative_squared_cross_mark ❎|heavy_multiplication_x ✖️|heavy_plus_sign ➕
heavy_minus_sign ➖|warning ⚠️|no_entry ⛔|no_entry_sign 🚫|stop_sign 🛑|question ❓
grey_question ❔|exclamation ❗|grey_exclamation ❕|bangbang ‼️|interrobang ⁉️
information_source ℹ️|new 🆕|free 🆓|up 🆙|cool 🆒|ok 🆗|sos 🆘|arrow_right ➡️|arrow_left ⬅️
arrow_up ⬆️|arrow_down ⬇️|arrow_forward ▶️|arrows_counterclockwise 🔄|repeat 🔁
leftwards_arrow_with_hook ↩️|arrow_heading_up ⤴️|arrow_heading_down ⤵️|red_circle 🔴
large_orange_circle 🟠|large_yellow_circle 🟡|large_green_circle 🟢|large_blue_circle 🔵
large_purple_circle 🟣|black_circle ⚫|white_circle ⚪|red_square 🟥|green_square 🟩
yellow_square 🟨|blue_square 🟦|small_red_triangle 🔺|small_red_triangle_down 🔻
small_blue_diamond 🔹|small_orange_diamond 🔸|large_blue_diamond 🔷|large_orange_diamond 🔶
black_small_square ▪️|white_small_square ▫️|radio_button 🔘|heavy_dollar_sign 💲
copyright ©️|registered ®️|tm ™️|hash #️⃣|one 1️⃣|two 2️⃣|three 3️⃣|four 4️⃣|five 5️⃣
six 6️⃣|seven 7️⃣|eight 8️⃣|nine 9️⃣|zero 0️⃣|keycap_ten 🔟|flag-us 🇺🇸|flag-gb 🇬🇧
flag-de 🇩🇪|flag-fr 🇫🇷|flag-jp 🇯🇵|flag-eu 🇪🇺|pirate_flag 🏴‍☠️|white_flag 🏳️|crown 👑
tophat 🎩|mortar_board 🎓|eyeglasses 👓|dark_sunglasses 🕶️|necktie 👔|shirt 👕|jeans 👖
running 🏃|walking 🚶|dancer 💃|man-shrugging 🤷‍♂️|woman-shrugging 🤷‍♀️|shrug 🤷|facepalm 🤦
raising_hand 🙋|ok_woman 🙆|no_good 🙅|bow 🙇|baby 👶|boy 👦|girl 👧|man 👨|woman 👩|older_man 👴
older_woman 👵|busts_in_silhouette 👥|bust_in_silhouette 👤|speaking_head_in_silhouette 🗣️
ninja 🥷|superhero 🦸|mage 🧙|zombie 🧟|vampire 🧛|santa 🎅|snowman ⛄|christmas_tree 🎄
jack_o_lantern 🎃|fireworks 🎆|sparkler 🎇|ticket 🎫|admission_tickets 🎟️|microphone 🎤
headphones 🎧|guitar 🎸|trumpet 🎺|violin 🎻|soccer ⚽|basketball 🏀|football 🏈|baseball ⚾
tennis 🎾|golf ⛳|ski 🎿|swimmer 🏊|surfer 🏄|weight_lifter 🏋️|bicyclist 🚴|sun_with_face 🌞
full_moon 🌕|new_moon 🌑|crescent_moon 🌙|comet ☄️|droplet 💧|sweat_drops 💦|dash 💨|tornado 🌪️
fog 🌫️|thermometer 🌡️|test_tube 🧪|microscope 🔬|telescope 🔭|satellite 🛰️|dna 🧬|pill 💊
syringe 💉|adhesive_bandage 🩹|stethoscope 🩺|broom 🧹|basket 🧺|toilet_paper 🧻|soap 🧼|sponge 🧽
fire_extinguisher 🧯|shopping_trolley 🛒|label 🏷️|moyai 🗿|infinity ♾️|recycle ♻️
atom_symbol ⚛️|peace_symbol ☮️|yin_yang ☯️|om_symbol 🕉️|sparkle ❇️
eight_spoked_asterisk ✳️|anchor ⚓|hotsprings ♨️|bomb 💣|knife 🔪|dagger_knife 🗡️
crossed_swords ⚔️|gun 🔫|bow_and_arrow 🏹|magnet 🧲|abacus 🧮|ledger 📒|scroll 📜|newspaper 📰
rolled_up_newspaper 🗞️|triangular_ruler 📐|straight_ruler 📏|heavy_division_sign ➗
wavy_dash 〰️|curly_loop ➰|loop ➿|ballot_box 🗳️|bookmark_tabs 📑|lock_with_ink_pen 🔏
closed_lock_with_key 🔐|old_key 🗝️|sunrise 🌅|city_sunset 🌆|night_with_stars 🌃|stars 🌠
volcano 🌋|mountain ⛰️|camping 🏕️|beach_with_umbrella 🏖️|desert 🏜️|world_map 🗺️|compass 🧭
zzz 💤|left_speech_bubble 🗨️|right_anger_bubble 🗯️|writing_hand ✍️|nail_care 💅|selfie 🤳
call_me_hand 🤙|metal 🤘|crossed_fingers 🤞|the_horns 🤘|fist ✊|punch 👊|facepunch 👊
raised_hand ✋|hand ✋|open_hands 👐|palms_up_together 🤲
heavy_heart_exclamation_mark_ornament ❣️|money_with_wings 💸|heavy_exclamation_mark ❗
point_up_2 👆|information_desk_person 💁
"""

EMOJI: Final[dict[str, str]] = dict(
    item.split(" ", 1)
    for line in _TABLE.splitlines()
    for item in line.split("|")
    if item
)

# Slack's optional ``unicode`` field on an emoji element: code points in hex joined by '-'
# (``1f600``, ``1f44d-1f3fb``, ``0023-fe0f-20e3``); at most ten, the longest ZWJ sequences.
_UNICODE_FIELD: Final = re.compile(r"[0-9A-Fa-f]{2,6}(?:-[0-9A-Fa-f]{2,6}){0,9}\Z")
# The code points an emoji is made of: the keycap bases (#, *, 0-9), (c) and (R), the
# symbol blocks from Letterlike Symbols to Misc Symbols and Arrows, CJK ideograph symbols,
# the emoji planes' pictographs, and the joiners, variation selectors, keycap mark and tag
# characters that build sequences. Anything else (markup characters, controls, bidi
# overrides, private use) is not an emoji: the element falls back to its name.
_EMOJI_POINTS: Final = (
    (0x23, 0x23), (0x2A, 0x2A), (0x30, 0x39), (0xA9, 0xA9), (0xAE, 0xAE),
    (0x200D, 0x200D), (0x203C, 0x203C), (0x2049, 0x2049), (0x20E3, 0x20E3),
    (0x2100, 0x2BFF), (0x3030, 0x3030), (0x303D, 0x303D), (0x3297, 0x3297),
    (0x3299, 0x3299), (0xFE0E, 0xFE0F), (0x1F000, 0x1FAFF), (0xE0020, 0xE007F),
)
# Sequence glue that cannot stand first (it would attach to the text before the emoji).
_NOT_FIRST: Final = frozenset({0x200D, 0x20E3, 0xFE0E, 0xFE0F, *range(0xE0020, 0xE0080)})


def _is_emoji_point(point: int) -> bool:
    return any(low <= point <= high for low, high in _EMOJI_POINTS)


def emoji_char(name: str, unicode_hex: object = None) -> str | None:
    """The character for a shortcode name (or a valid ``unicode`` hex field), else ``None``.

    The ``unicode`` field is used when every code point in it is one emoji are built from
    and the first is not sequence glue; otherwise the name decides.
    """
    if isinstance(unicode_hex, str) and _UNICODE_FIELD.match(unicode_hex):
        points = [int(part, 16) for part in unicode_hex.split("-")]
        if all(map(_is_emoji_point, points)) and points[0] not in _NOT_FIRST:
            return "".join(map(chr, points))
    return EMOJI.get(name)
