"""The club's phone pages without a browser (issue 9): starting a club (what was typed kept on
a refusal, the owner remembered), joining by the club code, the owner's share panel."""
from __future__ import annotations

import html
import re
from typing import Any

from club_nights import bearer, close, make_club, part_finals, play_part
from test_web_pages import csrf_of, field_value


def errors_of(page: str) -> dict[str, str]:
    return {key: html.unescape(text) for key, text in
            re.findall(r'<p class="error" id="err-([^"]*)" role="alert">([^<]*)</p>', page)}


def start_club(client: Any, **form: str) -> Any:
    token = csrf_of(client.get("/clubs/new").get_data(as_text=True))
    data = {"name": "Friday club", "currency": "EUR", "timezone": "Europe/Paris"} | form
    return client.post("/clubs/new", data=data | {"csrf_token": token})


def club_id_of(response: Any) -> str:
    match = re.fullmatch(r"/c/([\w-]+)\?share=1", response.headers["Location"])
    assert match, response.headers["Location"]
    return match.group(1)


def test_a_club_started_on_the_phone_opens_for_its_owner_with_the_share_panel(app: Any, client: Any) -> None:
    home = client.get("/").get_data(as_text=True)
    assert 'href="/clubs/new"' in home and 'href="/clubs/join"' in home
    started = start_club(client)
    assert started.status_code == 302
    club_id = club_id_of(started)
    page = client.get(f"/c/{club_id}?share=1")
    text = page.get_data(as_text=True)
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
    assert "<h1>Friday club</h1>" in text and "EUR" in text
    assert 'id="club-share" open' in text and "<svg" in text
    code = re.search(r'id="club-code-shown" data-code="([A-Z0-9]{6})"', text)
    assert code, "the owner's phone shows the club code"
    member_link = html.unescape(re.search(r'id="club-member-link"[^>]*value="([^"]+)"', text).group(1))
    assert f"/c/join/{club_id}/" in member_link
    assert "Friday club" in client.get("/").get_data(as_text=True)  # "Your clubs" on the home page
    member = app.test_client()
    assert member.get(member_link).status_code == 302  # the member link opens the club on another phone
    member_page = member.get(f"/c/{club_id}").get_data(as_text=True)
    assert 'id="club-start"' in member_page and 'id="club-share"' not in member_page
    joined = client.post("/api/v1/clubs/join", json={"code": code.group(1)})
    assert joined.status_code == 201 and joined.get_json()["id"] == club_id
    assert client.get(f"/api/v1/clubs/{club_id}", headers=bearer(joined.get_json()["token"])).get_json()[
        "timezone"] == "Europe/Paris"


def test_a_refused_club_keeps_what_was_typed(client: Any) -> None:
    refused = start_club(client, name="  ", currency="XXX", timezone="Mars/Olympus")
    page = refused.get_data(as_text=True)
    assert refused.status_code == 422
    assert errors_of(page) == {"name": "Type the club's name, such as Friday club.",
                               "currency": "Choose a currency from the list.",
                               "timezone": "Type the time zone as an IANA name, such as Europe/Paris or America/Chicago."}
    assert field_value(page, "timezone") == "Mars/Olympus"
    assert "data-phone-timezone" not in page  # the phone's zone does not overwrite what was typed
    too_long = start_club(client, name="Ü" * 121, timezone="Asia/Tokyo")
    assert too_long.status_code == 422 and "name" in errors_of(too_long.get_data(as_text=True))
    assert field_value(too_long.get_data(as_text=True), "name") == "Ü" * 121
    no_csrf = client.post("/clubs/new", data={"name": "Friday club", "currency": "USD", "timezone": "UTC"})
    assert no_csrf.status_code == 400


def test_a_second_phone_joins_by_the_club_code_and_is_a_member(app: Any, client: Any) -> None:
    club = make_club(client)
    phone = app.test_client()
    token = csrf_of(phone.get("/clubs/join").get_data(as_text=True))
    wrong = phone.post("/clubs/join", data={"code": "ZZZZZZ", "csrf_token": token})
    assert wrong.status_code == 422
    assert errors_of(wrong.get_data(as_text=True)) == {
        "code": "No club has that code. Check it on the club page of a member's phone."}
    assert field_value(wrong.get_data(as_text=True), "code") == "ZZZZZZ"
    assert phone.get(f"/c/{club['id']}").status_code == 403
    joined = phone.post("/clubs/join", data={"code": club["table_code"].lower(), "csrf_token": token})
    assert joined.status_code == 302 and joined.headers["Location"] == f"/c/{club['id']}"
    page = phone.get(f"/c/{club['id']}").get_data(as_text=True)
    assert 'id="club-start"' in page  # a member starts nights
    assert 'id="club-share"' not in page  # only the owner's own link sees the links
    assert "Friday club" in phone.get("/").get_data(as_text=True)


def owner_phone(app: Any, club: dict[str, Any]) -> Any:
    """A phone that opened the club's owner link."""
    phone = app.test_client()
    assert phone.get(f"/c/join/{club['id']}/{club['token']}").status_code == 302
    return phone


def test_the_owner_adds_and_renames_members_keeping_one_identity(app: Any, client: Any) -> None:
    club = make_club(client, members=["Dee", "Rosa"])
    phone = owner_phone(app, club)
    token = csrf_of(phone.get(f"/c/{club['id']}").get_data(as_text=True))
    added = phone.post(f"/c/{club['id']}/members", data={"name": "  Ed  ", "csrf_token": token})
    assert added.status_code == 302
    same = phone.post(f"/c/{club['id']}/members", data={"name": "ROSA", "csrf_token": token})
    assert same.status_code == 422
    assert errors_of(same.get_data(as_text=True)) == {
        "new-member": "Rosa is already a member of this club; choose a name that is easy to tell apart."}
    assert re.search(r'id="new-member"[^>]*value="ROSA"', same.get_data(as_text=True))
    members = {m["name"]: m["id"] for m in client.get(f"/api/v1/clubs/{club['id']}",
                                                      headers=bearer(club["token"])).get_json()["members"]}
    assert list(members) == ["Dee", "Rosa", "Ed"]
    # é composed or decomposed is the same name: the API's sentence, beside Dee's field, typed name kept
    phone.post(f"/c/{club['id']}/members/{members['Ed']}/rename", data={"name": "Andr\u00e9", "csrf_token": token})
    clash = phone.post(f"/c/{club['id']}/members/{members['Dee']}/rename",
                       data={"name": "ANDRE\u0301", "csrf_token": token})
    assert clash.status_code == 422
    api = client.post(f"/api/v1/clubs/{club['id']}/members/{members['Dee']}/rename", headers=bearer(club["token"]),
                      json={"name": "ANDRE\u0301"}).get_json()
    assert errors_of(clash.get_data(as_text=True)) == {f"rename-{members['Dee']}": api["message"]}
    assert api["message"] == "André is already a member of this club; choose a name that is easy to tell apart."
    dee = members["Dee"]
    assert re.search(rf'id="rename-{dee}"[^>]*value="ANDRE\u0301"', clash.get_data(as_text=True))
    renamed = phone.post(f"/c/{club['id']}/members/{members['Dee']}/rename", data={"name": "Deedee", "csrf_token": token})
    assert renamed.status_code == 302
    after = client.get(f"/api/v1/clubs/{club['id']}", headers=bearer(club["token"])).get_json()["members"]
    assert after == [{"id": members["Dee"], "name": "Deedee"}, {"id": members["Rosa"], "name": "Rosa"},
                     {"id": members["Ed"], "name": "André"}]


def test_a_member_adds_but_cannot_rename(app: Any, client: Any) -> None:
    club = make_club(client, members=["Dee", "Rosa"])
    phone = app.test_client()
    assert phone.get(f"/c/join/{club['id']}/{club['member_token']}").status_code == 302
    page = phone.get(f"/c/{club['id']}").get_data(as_text=True)
    assert 'id="club-add-member"' in page and "Save the name" not in page
    token = csrf_of(page)
    assert phone.post(f"/c/{club['id']}/members", data={"name": "Ed", "csrf_token": token}).status_code == 302
    assert phone.post(f"/c/{club['id']}/members/1/rename", data={"name": "X", "csrf_token": token}).status_code == 403
    viewer = app.test_client()
    viewer.get(f"/c/join/{club['id']}/{club['viewer_token']}")
    viewer_page = viewer.get(f"/c/{club['id']}").get_data(as_text=True)
    assert 'id="club-add-member"' not in viewer_page
    refused = viewer.post(f"/c/{club['id']}/members", data={"name": "Fay", "csrf_token": csrf_of(viewer.get("/clubs/new").get_data(as_text=True))})
    assert refused.status_code == 403


def club_body(client: Any, club: dict[str, Any]) -> dict[str, Any]:
    return client.get(f"/api/v1/clubs/{club['id']}", headers=bearer(club["token"])).get_json()


def test_payments_from_the_phone_shrink_the_plan_ask_before_overpaying_and_the_owner_voids(
    app: Any, client: Any
) -> None:
    from ledger.money import format_plain

    club = make_club(client)
    close(client, play_part(client, club, 0), carry_over=True)
    finals = part_finals(0)
    assert club_body(client, club)["balances"] == finals
    member = app.test_client()
    member.get(f"/c/join/{club['id']}/{club['member_token']}")
    token = csrf_of(member.get(f"/c/{club['id']}").get_data(as_text=True))
    first = club_body(client, club)["settlement"]["transfers"][0]
    part = first["amount"] // 2
    paid = member.post(f"/c/{club['id']}/payments", data={
        "from": first["from"], "to": first["to"], "amount": format_plain(part, "USD"), "csrf_token": token})
    assert paid.status_code == 302
    after = club_body(client, club)
    assert after["balances"][first["from"]] == finals[first["from"]] + part
    assert after["balances"][first["to"]] == finals[first["to"]] - part
    line = after["settlement"]["transfers"][0]
    assert {k: line[k] for k in ("from", "to", "amount")} == {"from": first["from"], "to": first["to"],
                                                            "amount": first["amount"] - part}
    assert sum(reason["amount"] for reason in line["because"]) == line["amount"]  # issue 20 item 9

    # more than the payer owes: asked first, with what was typed kept; recorded only when confirmed
    owes = -after["balances"][first["from"]]
    too_much = format_plain(owes + 100, "USD")
    asked = member.post(f"/c/{club['id']}/payments", data={
        "from": first["from"], "to": first["to"], "amount": too_much, "csrf_token": token})
    page = asked.get_data(as_text=True)
    assert asked.status_code == 422
    question = html.unescape(re.search(r'<p class="error" id="err-club-pay" role="alert">([^<]*)</p>', page).group(1))
    assert question == f"{first['from']} owes the club only ${format_plain(owes, 'USD')}. Record ${too_much} anyway?"
    assert re.search(rf'id="club-pay-amount"[^>]*value="{re.escape(too_much)}"', page)
    assert club_body(client, club)["balances"] == after["balances"]
    confirmed = member.post(f"/c/{club['id']}/payments", data={
        "from": first["from"], "to": first["to"], "amount": too_much, "confirm": "yes", "csrf_token": token})
    assert confirmed.status_code == 302
    assert club_body(client, club)["balances"][first["from"]] == after["balances"][first["from"]] + owes + 100

    bad = member.post(f"/c/{club['id']}/payments", data={
        "from": first["from"], "to": first["from"], "amount": "1", "csrf_token": token})
    assert bad.status_code == 422 and "A member cannot pay themselves." in bad.get_data(as_text=True)

    payments = client.get(f"/api/v1/clubs/{club['id']}/payments", headers=bearer(club["token"])).get_json()["payments"]
    last = payments[-1]["id"]
    assert member.post(f"/c/{club['id']}/payments/{last}/void", data={"csrf_token": token}).status_code == 403
    owner = owner_phone(app, club)
    owner_token = csrf_of(owner.get(f"/c/{club['id']}").get_data(as_text=True))
    assert owner.post(f"/c/{club['id']}/payments/{last}/void", data={"csrf_token": owner_token}).status_code == 302
    assert club_body(client, club)["balances"] == after["balances"]
    assert owner.post(f"/c/{club['id']}/payments/999/void", data={"csrf_token": owner_token}).status_code == 404
    assert 'class="badge badge-void"' in owner.get(f"/c/{club['id']}").get_data(as_text=True)


def standings_rows(page: str) -> dict[str, dict[str, str]]:
    """``{member: {cell class: text}}`` of the standings table."""
    rows = {}
    for row in re.findall(r'<tr class="standing"[^>]*>(.*?)</tr>', page, re.S):
        cells = dict(re.findall(r'class="standing-([\w-]+)(?: \w+)?">([^<]*)<', row))
        rows[html.unescape(cells.pop("name"))] = {k: html.unescape(v) for k, v in cells.items()}
    return rows


def test_the_standings_page_picks_a_period_and_matches_the_api(app: Any, client: Any) -> None:
    from datetime import date, timedelta

    from club_nights import three_nights
    from ledger.money import format_minor

    club = make_club(client)
    three_nights(client, club)
    viewer = app.test_client()
    viewer.get(f"/c/join/{club['id']}/{club['viewer_token']}")
    for query, api_query in (("", ""), ("?period=last&last=1", "?last=1"), ("?last=2", "?last=2")):
        page = viewer.get(f"/c/{club['id']}/standings{query}")
        assert page.status_code == 200
        text = page.get_data(as_text=True)
        api = client.get(f"/api/v1/clubs/{club['id']}/standings{api_query}", headers=bearer(club["token"])).get_json()
        rows = standings_rows(text)
        assert list(rows) == [s["member"] for s in api["members"]]
        for s in api["members"]:
            shown = rows[s["member"]]
            net = format_minor(s["net"], "USD")
            assert shown["net"] == (f"+{net}" if s["net"] > 0 else net)
            assert (shown["nights"], shown["hands"], shown["caught"]) == (str(s["nights"]), str(s["hands"]), str(s["caught"]))
            assert shown["wins-knock"] == str(s["wins"]["knock"]) and shown["wins-catch"] == str(s["wins"]["catch"])
            best = format_minor(s["best_night"], "USD")
            assert shown["best"] == (f"+{best}" if s["best_night"] > 0 else best)
        played = [s for s in api["members"] if s["nights"]]
        assert text.count('<li class="multiple">') == len(played)
        assert f"{len(api['nights'])} counted night" in text
    assert "1 counted night " in viewer.get(f"/c/{club['id']}/standings?last=1").get_data(as_text=True)
    tomorrow = (date.today() + timedelta(days=2)).isoformat()
    later = viewer.get(f"/c/{club['id']}/standings?period=dates&from={tomorrow}").get_data(as_text=True)
    assert "0 counted nights" in later and "No counted nights in this period yet." in later
    # a refused period keeps what was typed beside its field
    bad = viewer.get(f"/c/{club['id']}/standings?period=dates&from=2026-05-01&to=2026-04-01")
    assert bad.status_code == 422
    assert errors_of(bad.get_data(as_text=True)) == {"to": "The end date is before the start date."}
    assert 'value="2026-05-01"' in bad.get_data(as_text=True)
    bad_last = viewer.get(f"/c/{club['id']}/standings?period=last&last=zero")
    assert errors_of(bad_last.get_data(as_text=True)) == {"last": "Type how many nights to count, a whole number from 1."}
    # the PDFs for the chosen period, from the links on the page
    page = viewer.get(f"/c/{club['id']}/standings?last=1").get_data(as_text=True)
    links = [html.unescape(h) for h in re.findall(r'href="(/c/[^"]+\.pdf[^"]*)"', page)]
    assert any("/statements/" in h and "last=1" in h for h in links) and any("/summary.pdf?last=1" in h for h in links)
    for href in links[:2] + links[-1:]:
        pdf = viewer.get(href)
        assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF")
    assert viewer.get(f"/c/{club['id']}/statements/99999.pdf").status_code == 404


def test_the_chart_draws_one_panel_per_member_on_one_scale() -> None:
    from ledger.web.club_chart import panels

    drawn = panels([("Dee", 1, [100, -50, 300]), ("Rosa", 2, [-100, 50, -300])])
    assert [(p.member, p.final_minor) for p in drawn] == [("Dee", 300), ("Rosa", -300)]
    dee, rosa = (re.search(r'd="([^"]+)"', str(p.svg)).group(1) for p in drawn)
    assert dee.split()[0] == rosa.split()[0] == "M6.0,32.0"  # both start at zero, the middle of a ±300 scale
    assert dee.split()[-1] == "L154.0,6.0" and rosa.split()[-1] == "L154.0,58.0"
    assert "spark-pos" in str(drawn[0].svg) and "spark-neg" in str(drawn[1].svg)
    many = panels([(f"M{i}", i, [i * 10]) for i in range(40)])
    assert len(many) == 40


def test_club_pages_write_days_the_readers_way(app: Any, client: Any) -> None:
    """A club night's day on the club page is a Babel date in the phone's language, in a ``<time>``."""
    from datetime import datetime, timezone

    from babel.dates import format_date

    club = make_club(client, members=["Dee", "Rosa"])
    night = client.post("/api/v1/sessions", headers=bearer(club["token"]), json={
        "name": "Friday", "stake": 25, "players": ["Dee", "Rosa"], "first_dealer": "Dee", "club": club["id"]})
    assert night.status_code == 201, night.get_json()
    page = owner_phone(app, club).get(f"/c/{club['id']}?lang=tr").get_data(as_text=True)
    today = datetime.now(timezone.utc).date()
    assert f'<time datetime="{today.isoformat()}">{format_date(today, "medium", locale="tr_TR")}</time>' in page
