"""Three phones play a cast of Nothing Beats a Large in Chromium: the lock the third phone
sees without the piece, the reveal and the steal without a reload, and a goal revealed."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.support.api import Api
from tests.support.browser import screenshot

# Seed 0 deals Ann red Small, yellow Medium, green Large (goal cards green and red), Ben red
# Large, yellow Small, green Medium, Cat red Medium, yellow Large, green Small. Found by
# simulating the engine: after two casts played through the API, Ann holds the red Large
# and Small, and Cat holds the red Medium; the third cast, on the phones, is Cat's to
# challenge Ann, and Ann's steal of the red Medium completes her red goal.
SEED = 0


def seat_phone(new_phone, server_url: str, code: str, token: str):
    phone = new_phone()
    phone.context.add_cookies([{"name": f"companion_{code}", "value": token, "url": server_url}])
    phone.goto(f"{server_url}/t/{code}")
    return phone


def test_three_phones_cast_reveal_steal_and_see_a_goal_revealed(live_server, new_phone):
    api = Api(live_server.local_url)
    table = api.table(game="nothing-beats-a-large", seed=SEED)
    ids, tokens = table.ids, table.tokens

    def act(name, **action):
        status, body = table.act(tokens[name], **action)
        assert status == 200, body

    # Two casts through the API: Ann beats Ben, then Ben beats Cat.
    act("Ann", type="challenge", opponent=ids["Ben"])
    act("Ann", type="cast", piece="red-S")
    act("Ben", type="cast", piece=None)
    act("Ann", type="steal", piece="red-L")
    act("Ben", type="challenge", opponent=ids["Cat"])
    act("Ben", type="cast", piece="yellow-S")
    act("Cat", type="cast", piece=None)
    act("Ben", type="steal", piece="yellow-L")

    ann, ben, cat = (seat_phone(new_phone, live_server.url, table.code, tokens[name])
                     for name in ("Ann", "Ben", "Cat"))
    host = new_phone(1280, 800)
    host.context.add_cookies([{"name": f"companion_host_{table.code}", "value": table.host,
                               "url": live_server.url}])
    host.goto(f"{live_server.url}/t/{table.code}/host")
    expect(cat.locator(".turn:visible")).to_have_text(re.compile("Your turn"))
    expect(ben.locator(".nbl-prompt")).to_have_text("Cat challenges Ann.")

    # Pyramids: three sizes that differ at a glance, each with a name.
    sizes = [ann.locator(f".nbl-seat[data-yours] .nbl-pyr-{size}").first.bounding_box()["height"]
             for size in "LMS"]
    assert sizes[0] > sizes[1] * 1.15 and sizes[1] > sizes[2] * 1.15
    expect(ann.locator(".nbl-seat[data-yours]").get_by_role("img", name="red Large")
           ).to_be_visible()

    # Cat's cast: tap 1 challenges Ann, tap 2 locks the red Medium.
    cat.get_by_role("button", name="Challenge Ann 4 pieces").click()
    cast_button = cat.get_by_role("button", name="Cast the red Medium")
    box = cast_button.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44
    expect(ann.get_by_role("button", name="Cast Nothing")).to_be_visible()  # live, no reload
    cast_button.click()
    expect(cat.locator(".nbl-mine-cast")).to_contain_text("You locked in red Medium")

    # Ben, the third phone, sees that Cat locked in, never which piece.
    cast_box = ben.locator(".nbl-cast")
    expect(cast_box).to_contain_text(re.compile(r"Cat\s+locked in ✓"))
    expect(cast_box).to_contain_text(re.compile(r"Ann\s+choosing…"))
    assert not re.search(r"red|yellow|green|Large|Medium|Small|Nothing", cast_box.inner_text())
    assert ben.locator(".nbl-mine-cast").count() == 0
    expect(ben.locator(".nbl-reveal")).to_have_count(0)  # the last cast waits for the reveal
    screenshot(ben, "nbl-phone-third-sees-the-lock")
    screenshot(ann, "nbl-phone-caster-to-cast")

    # Ann's one tap: every phone shows both casts and why, without a reload.
    ann.get_by_role("button", name="Cast the red Large").click()
    for phone in (ben, cat, ann, host):
        reveal = phone.locator(".nbl-reveal")
        expect(reveal).to_contain_text("Large beats Medium.")
        expect(reveal).to_contain_text("Ann wins and takes a piece from Cat.")
        expect(reveal.locator(".nbl-won")).to_contain_text("red Large")
    expect(cat.locator(".nbl-reveal")).to_contain_text("Hand over the piece Ann picks.")
    screenshot(ben, "nbl-phone-reveal")

    # Ann steals the red Medium: her red goal is complete and shown on every screen.
    expect(ann.locator(".actions h2")).to_have_text("Take a piece from Cat")
    screenshot(ann, "nbl-phone-steal")
    ann.get_by_role("button", name="Take the red Medium").click()
    for phone in (ben, cat, host):
        expect(phone.locator(".nbl-latest")).to_contain_text("Ann stole the red Medium from Cat.")
        ann_seat = phone.locator(".nbl-seat", has_text="Ann")
        expect(ann_seat.locator(".nbl-goal-red.nbl-done")).to_be_visible()
        expect(ann_seat.locator(".nbl-goal")).to_have_count(1)  # the green card stays secret
    expect(ann.locator(".nbl-goals .nbl-goal-red.nbl-done")).to_be_visible()
    expect(ann.locator(".nbl-goals")).to_contain_text("Now all three green pieces win")
    expect(cat.locator(".turn:visible")).to_have_text(
        re.compile("Your turn"))  # the loser challenges
    screenshot(ben, "nbl-phone-goal-revealed")
    screenshot(ann, "nbl-phone-goal-mine")
    screenshot(host, "nbl-host-goal-revealed")
