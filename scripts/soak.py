#!/usr/bin/env python3
"""The soak scenario of issue 20 item 3, driven through the `syncrun` executable.

A local org runs in its own process (`syncrun org serve`) with faults on: a share of requests
answered 500/503 (--fail-rate), connections dropped before or after serving (--drop-rate),
latency, and access tokens that expire after a few seconds (--token-ttl; syncrun renews them
with the refresh token of an SFDX auth URL). The project's plan syncs up leads (creates, updates,
deletes, collection target) and account/contact trees (parent_children creates and updates),
then syncs both down.

Each round makes local changes with `syncrun store import` / `store mark`, starts `syncrun run`,
kills it with SIGKILL at a random moment, then checks: the store passes `PRAGMA integrity_check`,
the org holds no duplicate, and every local change is either on the org or still marked local in
the store. It then resumes (`syncrun run --resume`, again until it succeeds: faults can fail a
run) and checks that every change made so far is on the org. At the end, after a full run, both
sides must agree record for record. Prints a summary; exits 1 on any violation.
"""
import argparse
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

STORE = {
    "soups": [
        {"soupName": "leads", "indexes": [
            {"path": "Id", "type": "string"}, {"path": "LastName", "type": "string"},
            {"path": "Batch", "type": "string"}, {"path": "Company", "type": "string"},
            {"path": "__local__", "type": "string"},
            {"path": "__locally_created__", "type": "string"}, {"path": "__locally_updated__", "type": "string"},
            {"path": "__locally_deleted__", "type": "string"}, {"path": "__sync_id__", "type": "integer"}]},
        {"soupName": "accounts", "indexes": [
            {"path": "Id", "type": "string"}, {"path": "Name", "type": "string"},
            {"path": "Description", "type": "string"}, {"path": "Batch", "type": "string"},
            {"path": "__local__", "type": "string"}, {"path": "__locally_created__", "type": "string"},
            {"path": "__locally_updated__", "type": "string"}, {"path": "__locally_deleted__", "type": "string"},
            {"path": "__sync_id__", "type": "integer"}]},
        {"soupName": "contacts", "indexes": [
            {"path": "Id", "type": "string"}, {"path": "LastName", "type": "string"},
            {"path": "AccountId", "type": "string"}, {"path": "Batch", "type": "string"},
            {"path": "__local__", "type": "string"}, {"path": "__locally_created__", "type": "string"},
            {"path": "__locally_updated__", "type": "string"}, {"path": "__locally_deleted__", "type": "string"},
            {"path": "__sync_id__", "type": "integer"}]},
    ]
}

TREE = {
    "parent": {"sobjectType": "Account", "soupName": "accounts", "idFieldName": "Id",
               "modificationDateFieldName": "LastModifiedDate"},
    "children": {"sobjectType": "Contact", "sobjectTypePlural": "Contacts", "soupName": "contacts",
                 "parentIdFieldName": "AccountId", "idFieldName": "Id",
                 "modificationDateFieldName": "LastModifiedDate"},
    "relationshipType": "LOOKUP",
}

SYNCS = {
    "syncs": [
        {"syncName": "leadsUp", "syncType": "syncUp", "soupName": "leads",
         "target": {"type": "collection", "createFieldlist": ["LastName", "Company", "Description"],
                    "updateFieldlist": ["Description"]},
         "options": {"mergeMode": "OVERWRITE"}},
        {"syncName": "treesUp", "syncType": "syncUp", "soupName": "accounts",
         "target": dict(TREE, type="parent_children", createFieldlist=["Name", "Description"],
                        updateFieldlist=["Name"], childrenCreateFieldlist=["LastName"],
                        childrenUpdateFieldlist=["LastName"]),
         "options": {"mergeMode": "OVERWRITE"}},
        {"syncName": "leadsDown", "syncType": "syncDown", "soupName": "leads",
         "target": {"type": "soql",
                    "query": "SELECT Id, LastName, Company, Description, LastModifiedDate FROM Lead"},
         "options": {"mergeMode": "LEAVE_IF_CHANGED", "cleanGhosts": True}, "dependsOn": ["leadsUp"]},
        {"syncName": "treesDown", "syncType": "syncDown", "soupName": "accounts",
         "target": dict(TREE, type="parent_children", parentFieldlist=["Name", "Description"],
                        childrenFieldlist=["LastName", "AccountId"]),
         "options": {"mergeMode": "LEAVE_IF_CHANGED"}, "dependsOn": ["treesUp"]},
    ]
}


class Violation(Exception):
    pass


class Soak:
    def __init__(self, args):
        self.args = args
        self.syncrun = os.path.abspath(args.syncrun)
        self.random = random.Random(args.seed)
        self.root = tempfile.mkdtemp(prefix="syncrun-soak-")
        self.project = os.path.join(self.root, "project")
        self.org_dir = os.path.join(self.root, "org")
        self.store_file = os.path.join(self.project, ".syncrun", "store.db")
        self.kills = 0
        self.rounds = 0
        self.resumes = 0
        self.failed_runs = 0
        self.checks = 0
        self.compared = 0
        # The model: what the org must end up holding.
        self.leads = {}      # LastName -> {"desc", "deleted", "batch"}
        self.lead_batches = []
        self.trees = {}      # tag (Account.Description) -> {"name", "children": [LastName], "batch"}
        self.tree_batches = []
        self.server = None

    # -- processes -------------------------------------------------------------------------

    def run_syncrun(self, arguments, stdin=None, check=True, timeout=300):
        result = subprocess.run([self.syncrun] + arguments, input=stdin, capture_output=True, text=True,
                                timeout=timeout)
        if check and result.returncode != 0:
            raise Violation(f"syncrun {' '.join(arguments[:3])} failed ({result.returncode}): {result.stderr.strip()}")
        return result

    def start_org(self):
        os.makedirs(self.project, exist_ok=True)
        self.write_seed()
        self.run_syncrun(["org", "seed", "--data", self.org_dir, os.path.join(self.root, "seed", "plan.json")])
        self.refresh_token = f"soak-refresh-{self.args.seed}"
        self.server = subprocess.Popen(
            [self.syncrun, "org", "serve", "--data", self.org_dir, "--port", "0", "--format", "json",
             "--refresh-token", self.refresh_token, "--page-size", "7",
             "--fail-rate", str(self.args.fail_rate), "--drop-rate", str(self.args.drop_rate),
             "--fail-seed", str(self.args.seed), "--latency", str(self.args.latency),
             "--token-ttl", str(self.args.token_ttl), "--log", os.path.join(self.root, "requests.jsonl")],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.server.stdout.readline()
        if not line:
            raise Violation("org serve did not start")
        self.url = json.loads(line)["url"].rstrip("/")
        port = self.url.rsplit(":", 1)[1]
        auth = os.path.join(self.root, "auth-url.txt")
        with open(auth, "w") as file:
            file.write(f"force://PlatformCLI::{self.refresh_token}@127.0.0.1:{port}\n")
        self.org_arguments = ["--sfdx-auth-url-file", auth, "--login-url", self.url]

    def stop_org(self):
        if self.server and self.server.poll() is None:
            self.server.send_signal(signal.SIGTERM)
            try:
                self.server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.server.kill()
                self.server.wait()

    def write_seed(self):
        seed = os.path.join(self.root, "seed")
        os.makedirs(seed, exist_ok=True)
        n = self.args.records
        leads = [{"attributes": {"type": "Lead", "referenceId": f"Lead{i}"}, "LastName": f"Seed-L{i}",
                  "Company": "Soak", "Description": "seed"} for i in range(n)]
        accounts = [{"attributes": {"type": "Account", "referenceId": f"Acc{i}"}, "Name": f"Seed-A{i}",
                     "Description": f"seed-tree-{i}"} for i in range(max(1, n // 5))]
        contacts = [{"attributes": {"type": "Contact", "referenceId": f"Con{i}-{k}"}, "LastName": f"Seed-C{i}-{k}",
                     "AccountId": f"@Acc{i}"} for i in range(max(1, n // 5)) for k in range(2)]
        for name, records in [("Lead.json", leads), ("Account.json", accounts), ("Contact.json", contacts)]:
            with open(os.path.join(seed, name), "w") as file:
                json.dump({"records": records}, file)
        plan = [{"sobject": o, "saveRefs": True, "resolveRefs": True, "files": [f"{o}.json"]}
                for o in ["Lead", "Account", "Contact"]]
        with open(os.path.join(seed, "plan.json"), "w") as file:
            json.dump(plan, file)
        for i in range(n):
            self.leads[f"Seed-L{i}"] = {"desc": "seed", "deleted": False, "batch": None}
        for i in range(max(1, n // 5)):
            self.trees[f"seed-tree-{i}"] = {"name": f"Seed-A{i}", "children": [f"Seed-C{i}-{k}" for k in range(2)],
                                            "batch": None}

    def write_project(self):
        os.makedirs(self.project, exist_ok=True)
        with open(os.path.join(self.project, "userstore.json"), "w") as file:
            json.dump(STORE, file)
        with open(os.path.join(self.project, "usersyncs.json"), "w") as file:
            json.dump(SYNCS, file)

    def run_plan(self, resume=False):
        arguments = ["run", "--config", self.project, "--format", "json"] + self.org_arguments
        if resume:
            arguments.append("--resume")
        return self.run_syncrun(arguments, check=False)

    def run_until_done(self, resume):
        """Runs (or resumes) until a run succeeds; faults may fail a run, which is not a loss."""
        for attempt in range(12):
            result = self.run_plan(resume=resume)
            if result.returncode == 0:
                return
            self.failed_runs += 1
            if result.returncode not in (1,):
                raise Violation(f"run exited {result.returncode}: {result.stderr.strip()[-2000:]}")
            resume = True
        raise Violation(f"no run succeeded in 12 attempts; last: {result.stdout[-1500:]} {result.stderr[-1500:]}")

    def run_and_kill(self, estimate):
        arguments = [self.syncrun, "run", "--config", self.project, "--format", "json"] + self.org_arguments
        process = subprocess.Popen(arguments, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(self.random.uniform(0.02, max(0.05, estimate)))
        if process.poll() is None:
            process.send_signal(signal.SIGKILL)
            process.wait()
            self.kills += 1
            return True
        return False

    # -- local changes ---------------------------------------------------------------------

    def store(self, arguments, stdin=None):
        return self.run_syncrun(["store"] + arguments + ["--config", self.project], stdin=stdin)

    def make_changes(self, round_number):
        per_round = max(2, self.args.records // 10)
        batch = f"b{round_number}"
        created = []
        for k in range(per_round):
            name = f"L{self.args.seed}-{round_number}-{k}"
            # The batch is kept in Company, a field the org stores: sync down replaces an entry with
            # the org's record, so a soup-only field would be gone by the time the batch is updated.
            created.append({"attributes": {"type": "Lead"}, "LastName": name, "Company": f"Soak-{batch}",
                            "Description": "v0", "Batch": batch})
            self.leads[name] = {"desc": "v0", "deleted": False, "batch": batch}
        self.store(["import", "leads", "-"], stdin=json.dumps(created))
        self.store(["mark", "leads", "--created", "--where", f"Batch={batch}"])
        live = [b for b in self.lead_batches if any(v["batch"] == b and not v["deleted"] for v in self.leads.values())]
        if live:
            updated = self.random.choice(live)
            self.store(["mark", "leads", "--updated", "--where", f"Company=Soak-{updated}",
                        "--set", f"Description=v{round_number}"])
            for lead in self.leads.values():
                if lead["batch"] == updated and not lead["deleted"]:
                    lead["desc"] = f"v{round_number}"
            others = [b for b in live if b != updated]
            if others and self.random.random() < 0.4:
                deleted = self.random.choice(others)
                self.store(["mark", "leads", "--deleted", "--where", f"Company=Soak-{deleted}"])
                for lead in self.leads.values():
                    if lead["batch"] == deleted:
                        lead["deleted"] = True
        self.lead_batches.append(batch)

        # A new tree (an account and two contacts, all local), and a renamed account.
        tree_batch = f"t{round_number}"
        tag = f"tree-{self.args.seed}-{round_number}"
        parent_id = f"local_soak{self.args.seed}x{round_number}"
        self.store(["import", "accounts", "-"], stdin=json.dumps([
            {"attributes": {"type": "Account"}, "Id": parent_id, "Name": f"T{round_number}", "Description": tag,
             "Batch": tree_batch}]))
        children = [f"C{self.args.seed}-{round_number}-{k}" for k in range(2)]
        self.store(["import", "contacts", "-"], stdin=json.dumps([
            {"attributes": {"type": "Contact"}, "LastName": child, "AccountId": parent_id, "Batch": tree_batch}
            for child in children]))
        self.store(["mark", "accounts", "--created", "--where", f"Batch={tree_batch}"])
        self.store(["mark", "contacts", "--created", "--where", f"Batch={tree_batch}"])
        self.trees[tag] = {"name": f"T{round_number}", "children": children, "batch": tree_batch}
        if self.tree_batches:
            renamed = self.random.choice(self.tree_batches)
            new_name = f"T{renamed[1:]}-r{round_number}"
            renamed_tag = f"tree-{self.args.seed}-{renamed[1:]}"
            self.store(["mark", "accounts", "--updated", "--where", f"Description={renamed_tag}",
                        "--set", f"Name={new_name}"])
            for tree in self.trees.values():
                if tree["batch"] == renamed:
                    tree["name"] = new_name
        self.tree_batches.append(tree_batch)

    # -- checks ------------------------------------------------------------------------------

    def org_rows(self, soql):
        result = self.run_syncrun(["org", "query", "--data", self.org_dir, soql])
        return json.loads(result.stdout)

    def store_entries(self, soup):
        result = self.store(["export", soup, "--format", "json"])
        text = result.stdout.strip()
        if not text:
            return []
        if text.startswith("["):
            return json.loads(text)
        return [json.loads(line) for line in text.splitlines() if line.strip()]

    @staticmethod
    def is_local(entry):
        return entry.get("__local__") in (True, "true", 1)

    def check_integrity(self):
        for path in [self.store_file, os.path.join(self.org_dir, "org.sqlite")]:
            connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            try:
                result = connection.execute("PRAGMA integrity_check").fetchall()
            finally:
                connection.close()
            if result != [("ok",)]:
                raise Violation(f"integrity_check of {path}: {result}")

    def org_state(self):
        leads = self.org_rows("SELECT Id, LastName, Description FROM Lead")
        accounts = self.org_rows("SELECT Id, Name, Description FROM Account")
        contacts = self.org_rows("SELECT Id, LastName, AccountId FROM Contact")
        for label, rows, key in [("Lead", leads, "LastName"), ("Account", accounts, "Description"),
                                 ("Contact", contacts, "LastName")]:
            seen = {}
            for row in rows:
                seen[row[key]] = seen.get(row[key], 0) + 1
            duplicates = {k: v for k, v in seen.items() if v > 1}
            if duplicates:
                raise Violation(f"duplicate {label} records on the org: {duplicates}")
        return leads, accounts, contacts

    def check(self, strict):
        """After a kill (strict=False): every change is on the org or still local. After a
        successful run (strict=True): every change is on the org and nothing is local."""
        self.checks += 1
        self.check_integrity()
        leads, accounts, contacts = self.org_state()
        org_leads = {row["LastName"]: row for row in leads}
        org_accounts = {row["Description"]: row for row in accounts}
        account_tags = {row["Id"]: row["Description"] for row in accounts}
        org_contacts = {row["LastName"]: row for row in contacts}
        store_leads = {entry.get("LastName"): entry for entry in self.store_entries("leads")}
        store_accounts = {entry.get("Description"): entry for entry in self.store_entries("accounts")}
        store_contacts = {entry.get("LastName"): entry for entry in self.store_entries("contacts")}

        def pending(entry):
            return entry is not None and self.is_local(entry)

        for name, lead in self.leads.items():
            on_org = org_leads.get(name)
            local = store_leads.get(name)
            if lead["deleted"]:
                applied = on_org is None
            else:
                applied = on_org is not None and on_org.get("Description") == lead["desc"]
            if not applied and (strict or not pending(local)):
                raise Violation(f"lead {name}: expected {lead}, org has {on_org}, store has {local}")
            if strict and pending(local):
                raise Violation(f"lead {name} still local after a successful run: {local}")
        for tag, tree in self.trees.items():
            on_org = org_accounts.get(tag)
            local = store_accounts.get(tag)
            applied = on_org is not None and on_org.get("Name") == tree["name"]
            if not applied and (strict or not pending(local)):
                raise Violation(f"account {tag}: expected {tree['name']}, org has {on_org}, store has {local}")
            for child in tree["children"]:
                on_org_child = org_contacts.get(child)
                local_child = store_contacts.get(child)
                child_applied = on_org_child is not None and account_tags.get(on_org_child.get("AccountId")) == tag
                if not child_applied and (strict or not (pending(local_child) or pending(local))):
                    raise Violation(f"contact {child} of {tag}: org has {on_org_child}, store has {local_child}")

    def compare_sides(self):
        """Both sides agree record for record (after a final successful run)."""
        leads, accounts, contacts = self.org_state()
        store_leads = [e for e in self.store_entries("leads")]
        store_accounts = [e for e in self.store_entries("accounts")]
        store_contacts = [e for e in self.store_entries("contacts")]
        org_l = sorted((r["Id"], r["LastName"], r.get("Description")) for r in leads)
        store_l = sorted((e.get("Id"), e.get("LastName"), e.get("Description")) for e in store_leads)
        org_a = sorted((r["Id"], r["Name"], r.get("Description")) for r in accounts)
        store_a = sorted((e.get("Id"), e.get("Name"), e.get("Description")) for e in store_accounts)
        org_c = sorted((r["Id"], r["LastName"], r.get("AccountId")) for r in contacts)
        store_c = sorted((e.get("Id"), e.get("LastName"), e.get("AccountId")) for e in store_contacts)
        for label, org_side, store_side in [("Lead", org_l, store_l), ("Account", org_a, store_a),
                                            ("Contact", org_c, store_c)]:
            if org_side != store_side:
                only_org = sorted(set(org_side) - set(store_side))[:5]
                only_store = sorted(set(store_side) - set(org_side))[:5]
                raise Violation(f"{label}: the sides differ; only on the org {only_org}, only in the store "
                                f"{only_store}")
            self.compared += len(org_side)
        if any(self.is_local(e) for e in store_leads + store_accounts + store_contacts):
            raise Violation("entries still local after the final run")
        expected_leads = sorted(n for n, v in self.leads.items() if not v["deleted"])
        if sorted(r[1] for r in org_l) != expected_leads:
            raise Violation("the org's leads are not the model's")

    # -- the scenario ------------------------------------------------------------------------

    def run(self):
        started = time.monotonic()
        self.write_project()
        self.start_org()
        try:
            began = time.monotonic()
            self.run_until_done(resume=False)
            estimate = max(0.3, time.monotonic() - began)
            self.check(strict=True)
            # A round whose run ends before its kill moment counts no kill: rounds go on until
            # --kills runs were killed (at most ten times as many rounds: a run of a small round can
            # end in a fraction of a second).
            round_number = 0
            while self.kills < self.args.kills and round_number < 10 * self.args.kills:
                round_number += 1
                self.make_changes(round_number)
                self.rounds = round_number
                began = time.monotonic()
                if not self.run_and_kill(estimate):
                    # The run finished before the kill: check it, then make the next kill sooner.
                    self.check(strict=False)
                    estimate = max(0.05, (time.monotonic() - began) * 0.5)
                    continue
                self.check(strict=False)
                began = time.monotonic()
                self.run_until_done(resume=True)
                self.resumes += 1
                # A resumed run finishes what the killed one started; a plain run then syncs what
                # the killed run had not reached (changes made after its sync ups read the soup).
                self.run_until_done(resume=False)
                estimate = max(0.3, time.monotonic() - began)
                self.check(strict=True)
            self.run_until_done(resume=False)
            self.check(strict=True)
            self.compare_sides()
        finally:
            self.stop_org()
        elapsed = time.monotonic() - started
        if self.kills < self.args.kills:
            raise Violation(f"only {self.kills} of {self.args.kills} runs were killed")
        print(f"soak: rounds {self.rounds}, kills {self.kills}, resumes {self.resumes}, failed runs retried {self.failed_runs}, "
              f"checks {self.checks}, records compared {self.compared}, lost 0, duplicates 0 "
              f"({elapsed:.0f} s, seed {self.args.seed})")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--syncrun", default=".build/debug/syncrun")
    parser.add_argument("--kills", type=int, default=50)
    parser.add_argument("--records", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--fail-rate", type=float, default=0.05)
    parser.add_argument("--drop-rate", type=float, default=0.03)
    parser.add_argument("--latency", type=int, default=2, help="milliseconds")
    parser.add_argument("--token-ttl", type=int, default=3, help="seconds")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    args = parser.parse_args()
    soak = Soak(args)
    try:
        soak.run()
    except Violation as violation:
        print(f"soak: FAILED after {soak.kills} kills, {soak.resumes} resumes: {violation}", file=sys.stderr)
        print(f"soak: files kept in {soak.root}", file=sys.stderr)
        sys.exit(1)
    if not args.keep:
        shutil.rmtree(soak.root, ignore_errors=True)
    else:
        print(f"soak: files in {soak.root}")


if __name__ == "__main__":
    main()
