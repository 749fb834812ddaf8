"""A result the server could not take for a moment (503 with Retry-After: its database
restarting) is kept by the page and sent again, not dropped."""

import json
import re

import pytest
from playwright.sync_api import expect
from test_browser_players import solve_daily_by_hand

pytestmark = pytest.mark.browser


def test_a_result_answered_503_is_sent_again_after_retry_after(page, live_server):
    posts = []

    def first_refused(route):
        posts.append(route.request.post_data)
        if len(posts) == 1:
            route.fulfill(
                status=503,
                headers={"Retry-After": "1", "Content-Type": "application/json"},
                body=json.dumps({"ok": False, "error": "the database is unavailable"}),
            )
        else:
            route.continue_()

    page.route("**/api/results", first_refused)
    view = solve_daily_by_hand(page, live_server)
    expect(view.testid("standing")).to_contain_text("sending again", timeout=5_000)
    expect(view.testid("rank")).to_have_text(re.compile(r"^#\d+$"), timeout=10_000)
    assert len(posts) == 2 and posts[0] == posts[1]  # the same result, kept and sent again
    view.errors[:] = [error for error in view.errors if "status of 503" not in error]
    view.assert_no_errors()
