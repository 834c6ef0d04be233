-- Running totals (docs/decisions.md, "Running totals"): what the public pages show about paid sales -- raised
-- amount, backer count, sponsor walls -- is kept up to date by the database in the sale's own transaction, so a
-- read is a primary-key lookup (or one row per sponsor), whatever the number of sales.
--
-- Counting rule: a sale counts with its amount while status = 'succeeded' and it is not refunded (flag <> 11);
-- it leaves the totals when refunded or when it stops being succeeded. sale_counts_toward_totals states it once;
-- adapters-postgres/src/sql_rules.rs ties it to domain::payment::counts_toward_totals.
--
-- Concurrency: totals change by increments (INSERT ... ON CONFLICT DO UPDATE SET x = x + delta), which PostgreSQL
-- applies to the newest committed row version, so concurrent payments never lose an update; payments of one
-- project serialize on that project's totals row only. One statement's changes are applied table by table
-- (project_totals, return_totals, sponsor_totals) and within a table in key order, so two transactions always
-- lock totals rows in the same order and cannot deadlock on them.
-- The totals tables carry no CHECK (x >= 0): PostgreSQL checks the row an upsert proposes (the delta itself, which
-- is negative for a refund) before it finds the conflict. Exactness is pinned by tests against a recomputation.

-- The counting rule. IMMUTABLE and a single expression, so the planner inlines it.
CREATE FUNCTION sale_counts_toward_totals(status TEXT, flag SMALLINT) RETURNS BOOLEAN
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT $1 = 'succeeded' AND $2 <> 11 $$;

-- A return type that may show a logo on the sponsor walls (domain::returns::ReturnType::allows_logo: company 1,
-- organisation 2).
CREATE FUNCTION return_type_allows_logo(return_type SMALLINT) RETURNS BOOLEAN
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT $1 IN (1, 2) $$;

-- `name` trimmed as Rust's str::trim trims (every White_Space character, full-width space included); btrim alone
-- removes only the ASCII space.
CREATE FUNCTION trim_whitespace(name TEXT) RETURNS TEXT
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT btrim($1, E'\u0009\u000A\u000B\u000C\u000D\u0020\u0085\u00A0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200A\u2028\u2029\u202F\u205F\u3000') $$;

-- Paid total of each project.
CREATE TABLE project_totals (
    -- The project.
    project_id  BIGINT PRIMARY KEY,
    -- Sum of amount (price x lot, tax not included) of the project's counting sales, yen.
    paid_amount BIGINT NOT NULL DEFAULT 0,
    -- Number of counting sales (supports).
    supports    BIGINT NOT NULL DEFAULT 0,
    CONSTRAINT project_totals_project_id_fkey FOREIGN KEY (project_id) REFERENCES projects (id) ON DELETE CASCADE
);

-- Paid total of each return.
CREATE TABLE return_totals (
    -- The return.
    return_id   BIGINT PRIMARY KEY,
    -- Sum of amount of the return's counting sales, yen.
    paid_amount BIGINT NOT NULL DEFAULT 0,
    -- Number of counting sales of the return.
    supports    BIGINT NOT NULL DEFAULT 0,
    CONSTRAINT return_totals_return_id_fkey FOREIGN KEY (return_id) REFERENCES returns (id) ON DELETE CASCADE
);

-- One supporter of one project, as the sponsor walls need them (domain::sponsor::aggregate): cumulative amount,
-- latest support and what names the supporter. A row with supports = 0 is no sponsor (kept, not deleted, so a
-- concurrent payment of the same supporter always finds a row to lock).
CREATE TABLE sponsor_totals (
    -- The project.
    project_id      BIGINT      NOT NULL,
    -- The supporter.
    user_id         BIGINT      NOT NULL,
    -- Sum of amount of the supporter's counting sales of the project, yen (the sponsor tier's amount).
    amount          BIGINT      NOT NULL DEFAULT 0,
    -- Number of those sales.
    supports        BIGINT      NOT NULL DEFAULT 0,
    -- created_at of the newest of those sales (the "earlier latest date first" tie-break); NULL when none.
    latest_at       TIMESTAMPTZ,
    -- Whether any of those sales asked for anonymity (display name flag 0).
    anonymous       BOOLEAN     NOT NULL DEFAULT FALSE,
    -- The newest non-blank display name of those sales, trimmed.
    name            TEXT,
    -- created_at and id of the sale that gave `name` (ties across projects are broken by the sale id).
    named_at        TIMESTAMPTZ,
    named_sale_id   BIGINT,
    -- created_at of the newest company/organisation sale without a display name (named by the company name).
    unnamed_logo_at TIMESTAMPTZ,
    -- Highest company/organisation return type among those sales; NULL when none (no logo right).
    logo_type       SMALLINT,
    CONSTRAINT sponsor_totals_pkey PRIMARY KEY (project_id, user_id),
    CONSTRAINT sponsor_totals_project_id_fkey FOREIGN KEY (project_id) REFERENCES projects (id) ON DELETE CASCADE,
    CONSTRAINT sponsor_totals_user_id_fkey FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE
);

-- Describing one supporter reads only that supporter's paid sales of the project.
CREATE INDEX sales_user_project_paid_idx ON sales (user_id, project_id) WHERE status = 'succeeded';

-- What names one supporter of one project, from their counting sales (one row, NULLs when there is none).
-- The same rules as the sponsor query it replaces: the newest named sale names the supporter (ties by sale id),
-- anonymity is sticky, logos come with company and organisation returns.
CREATE FUNCTION sponsor_description(p_project_id BIGINT, p_user_id BIGINT)
    RETURNS TABLE (latest_at TIMESTAMPTZ, anonymous BOOLEAN, name TEXT, named_at TIMESTAMPTZ, named_sale_id BIGINT,
                   unnamed_logo_at TIMESTAMPTZ, logo_type SMALLINT)
    LANGUAGE sql STABLE
    AS $$
    SELECT max(s.created_at),
           coalesce(bool_or(coalesce(n.flag, 1) = 0), FALSE),
           (array_agg(trim_whitespace(n.displayname) ORDER BY s.created_at DESC, s.id DESC)
               FILTER (WHERE trim_whitespace(n.displayname) <> ''))[1],
           max(s.created_at) FILTER (WHERE trim_whitespace(n.displayname) <> ''),
           (array_agg(s.id ORDER BY s.created_at DESC, s.id DESC)
               FILTER (WHERE trim_whitespace(n.displayname) <> ''))[1],
           max(s.created_at) FILTER (WHERE return_type_allows_logo(r.return_type)
                                       AND coalesce(trim_whitespace(n.displayname), '') = ''),
           max(r.return_type) FILTER (WHERE return_type_allows_logo(r.return_type))
    FROM sales s
    JOIN returns r ON r.id = s.return_id
    LEFT JOIN display_names n ON n.sales_id = s.id
    WHERE s.project_id = p_project_id AND s.user_id = p_user_id
      AND s.status = 'succeeded' AND sale_counts_toward_totals(s.status, s.flag)
    $$;

-- Recomputes the descriptive columns of the given sponsor rows. Callers hold the rows' locks and call this in a
-- statement of its own: in READ COMMITTED that statement sees every sale committed by whoever held the lock
-- before, so the newest-first columns (which cannot be decremented) are never computed from an old snapshot.
CREATE FUNCTION sponsor_totals_describe(project_ids BIGINT[], user_ids BIGINT[]) RETURNS VOID
    LANGUAGE sql VOLATILE
    AS $$
    UPDATE sponsor_totals t
       SET latest_at = d.latest_at, anonymous = d.anonymous, name = d.name, named_at = d.named_at,
           named_sale_id = d.named_sale_id, unnamed_logo_at = d.unnamed_logo_at, logo_type = d.logo_type
      FROM unnest(project_ids, user_ids) AS p (project_id, user_id)
      CROSS JOIN LATERAL sponsor_description(p.project_id, p.user_id) d
     WHERE t.project_id = p.project_id AND t.user_id = p.user_id
    $$;

-- Takes the sponsor rows of the given supporters (creating empty ones), in key order, then describes them.
-- Used when something that names a sponsor changes without changing any amount (display names, return types).
-- The projects' totals rows are taken first, as a payment takes them, so that a transaction which writes a
-- display name and then pays cannot deadlock with a payment of the same project.
CREATE FUNCTION sponsor_totals_refresh(project_ids BIGINT[], user_ids BIGINT[]) RETURNS VOID
    LANGUAGE plpgsql VOLATILE
    AS $$
DECLARE
    sorted_projects BIGINT[];
    sorted_users BIGINT[];
BEGIN
    SELECT array_agg(project_id ORDER BY project_id, user_id), array_agg(user_id ORDER BY project_id, user_id)
      INTO sorted_projects, sorted_users
      FROM (SELECT DISTINCT project_id, user_id FROM unnest(project_ids, user_ids) AS p (project_id, user_id)) p;
    IF sorted_projects IS NULL THEN
        RETURN;
    END IF;
    INSERT INTO project_totals AS t (project_id)
    SELECT DISTINCT project_id FROM unnest(sorted_projects) AS p (project_id) ORDER BY project_id
    ON CONFLICT (project_id) DO UPDATE SET paid_amount = t.paid_amount;
    INSERT INTO sponsor_totals AS t (project_id, user_id)
    SELECT * FROM unnest(sorted_projects, sorted_users)
    ON CONFLICT (project_id, user_id) DO UPDATE SET amount = t.amount;
    PERFORM sponsor_totals_describe(sorted_projects, sorted_users);
END;
$$;

-- A sale entering or leaving the totals, as the trigger passes it on.
CREATE TYPE running_totals_sale AS (id BIGINT, project_id BIGINT, return_id BIGINT, user_id BIGINT, amount BIGINT,
                                    created_at TIMESTAMPTZ);

-- Applies one statement's changes: increments in key order, table by table. A sponsor's descriptive columns
-- merge with what the added sales bring (newest wins, anonymity sticks, logo right only grows), which is what a
-- recomputation would give and costs nothing per past sale; only a sponsor who lost a sale is described afresh.
CREATE FUNCTION running_totals_apply(added running_totals_sale[], removed running_totals_sale[]) RETURNS VOID
    LANGUAGE plpgsql VOLATILE
    AS $$
DECLARE
    shrunk_projects BIGINT[];
    shrunk_users BIGINT[];
BEGIN
    IF cardinality(added) + cardinality(removed) = 0 THEN
        RETURN;
    END IF;
    INSERT INTO project_totals AS t (project_id, paid_amount, supports)
    SELECT c.project_id, sum(c.amount)::bigint, sum(c.supports)::bigint
      FROM (SELECT a.project_id, a.amount, 1 AS supports FROM unnest(added) a
            UNION ALL
            SELECT r.project_id, -r.amount, -1 FROM unnest(removed) r) c
     GROUP BY c.project_id ORDER BY c.project_id
    ON CONFLICT (project_id) DO UPDATE
       SET paid_amount = t.paid_amount + EXCLUDED.paid_amount, supports = t.supports + EXCLUDED.supports;

    INSERT INTO return_totals AS t (return_id, paid_amount, supports)
    SELECT c.return_id, sum(c.amount)::bigint, sum(c.supports)::bigint
      FROM (SELECT a.return_id, a.amount, 1 AS supports FROM unnest(added) a
            UNION ALL
            SELECT r.return_id, -r.amount, -1 FROM unnest(removed) r) c
     GROUP BY c.return_id ORDER BY c.return_id
    ON CONFLICT (return_id) DO UPDATE
       SET paid_amount = t.paid_amount + EXCLUDED.paid_amount, supports = t.supports + EXCLUDED.supports;

    INSERT INTO sponsor_totals AS t (project_id, user_id, amount, supports, latest_at, anonymous, name, named_at,
                                     named_sale_id, unnamed_logo_at, logo_type)
    SELECT c.project_id, c.user_id, sum(c.amount)::bigint, sum(c.supports)::bigint,
           max(c.created_at),
           coalesce(bool_or(c.anonymous), FALSE),
           (array_agg(c.name ORDER BY c.created_at DESC, c.id DESC) FILTER (WHERE c.name <> ''))[1],
           max(c.created_at) FILTER (WHERE c.name <> ''),
           (array_agg(c.id ORDER BY c.created_at DESC, c.id DESC) FILTER (WHERE c.name <> ''))[1],
           max(c.created_at) FILTER (WHERE c.logo AND coalesce(c.name, '') = ''),
           max(c.return_type) FILTER (WHERE c.logo)
      FROM (SELECT a.id, a.project_id, a.user_id, a.amount, 1 AS supports, a.created_at,
                   coalesce(n.flag, 1) = 0 AS anonymous, trim_whitespace(n.displayname) AS name,
                   return_type_allows_logo(rt.return_type) AS logo, rt.return_type
              FROM unnest(added) a
              JOIN returns rt ON rt.id = a.return_id
              LEFT JOIN display_names n ON n.sales_id = a.id
            UNION ALL
            SELECT r.id, r.project_id, r.user_id, -r.amount, -1, NULL, NULL, NULL, NULL, NULL
              FROM unnest(removed) r) c
     GROUP BY c.project_id, c.user_id ORDER BY c.project_id, c.user_id
    ON CONFLICT (project_id, user_id) DO UPDATE
       SET amount = t.amount + EXCLUDED.amount,
           supports = t.supports + EXCLUDED.supports,
           latest_at = greatest(t.latest_at, EXCLUDED.latest_at),
           anonymous = t.anonymous OR EXCLUDED.anonymous,
           (name, named_at, named_sale_id) =
               (SELECT CASE WHEN newer THEN EXCLUDED.name ELSE t.name END,
                       CASE WHEN newer THEN EXCLUDED.named_at ELSE t.named_at END,
                       CASE WHEN newer THEN EXCLUDED.named_sale_id ELSE t.named_sale_id END
                  FROM (SELECT EXCLUDED.named_at IS NOT NULL
                               AND (t.named_at IS NULL
                                    OR (EXCLUDED.named_at, EXCLUDED.named_sale_id) > (t.named_at, t.named_sale_id))
                               AS newer) x),
           unnamed_logo_at = greatest(t.unnamed_logo_at, EXCLUDED.unnamed_logo_at),
           logo_type = greatest(t.logo_type, EXCLUDED.logo_type);

    -- The newest-first columns cannot be decremented: whoever lost a sale is described from their sales.
    SELECT array_agg(p.project_id ORDER BY p.project_id, p.user_id), array_agg(p.user_id ORDER BY p.project_id, p.user_id)
      INTO shrunk_projects, shrunk_users
      FROM (SELECT DISTINCT r.project_id, r.user_id FROM unnest(removed) r) p;
    PERFORM sponsor_totals_describe(shrunk_projects, shrunk_users);
END;
$$;

-- The statement-level trigger on sales: rows that start counting are added, rows that stop counting are taken
-- away (an UPDATE pairs old and new versions by id; sales ids never change). An update that does not change
-- whether a sale counts touches no totals row at all.
CREATE FUNCTION sales_running_totals() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
    added running_totals_sale[] := ARRAY[]::running_totals_sale[];
    removed running_totals_sale[] := ARRAY[]::running_totals_sale[];
BEGIN
    IF TG_OP = 'INSERT' THEN
        added := ARRAY(
            SELECT ROW(n.id, n.project_id, n.return_id, n.user_id, n.amount, n.created_at)::running_totals_sale
              FROM new_sales n WHERE sale_counts_toward_totals(n.status, n.flag));
    ELSIF TG_OP = 'DELETE' THEN
        removed := ARRAY(
            SELECT ROW(o.id, o.project_id, o.return_id, o.user_id, o.amount, o.created_at)::running_totals_sale
              FROM old_sales o WHERE sale_counts_toward_totals(o.status, o.flag));
    ELSE
        added := ARRAY(
            SELECT ROW(n.id, n.project_id, n.return_id, n.user_id, n.amount, n.created_at)::running_totals_sale
              FROM new_sales n JOIN old_sales o ON o.id = n.id
             WHERE sale_counts_toward_totals(n.status, n.flag) AND NOT sale_counts_toward_totals(o.status, o.flag));
        removed := ARRAY(
            SELECT ROW(o.id, o.project_id, o.return_id, o.user_id, o.amount, o.created_at)::running_totals_sale
              FROM old_sales o JOIN new_sales n ON n.id = o.id
             WHERE sale_counts_toward_totals(o.status, o.flag) AND NOT sale_counts_toward_totals(n.status, n.flag));
    END IF;
    PERFORM running_totals_apply(added, removed);
    RETURN NULL;
END;
$$;

-- Transition tables need one trigger per event and no column list; the UPDATE trigger therefore fires for every
-- UPDATE of sales and finds nothing to do unless status or flag (refunded_amount goes with flag) changed whether
-- a sale counts.
CREATE TRIGGER sales_running_totals_insert AFTER INSERT ON sales
    REFERENCING NEW TABLE AS new_sales FOR EACH STATEMENT EXECUTE FUNCTION sales_running_totals();
CREATE TRIGGER sales_running_totals_update AFTER UPDATE ON sales
    REFERENCING OLD TABLE AS old_sales NEW TABLE AS new_sales FOR EACH STATEMENT EXECUTE FUNCTION sales_running_totals();
CREATE TRIGGER sales_running_totals_delete AFTER DELETE ON sales
    REFERENCING OLD TABLE AS old_sales FOR EACH STATEMENT EXECUTE FUNCTION sales_running_totals();

-- A display name (or its anonymity flag) names its supporter on the walls.
CREATE FUNCTION display_names_running_totals() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM sponsor_totals_refresh(ARRAY(SELECT project_id FROM new_names), ARRAY(SELECT user_id FROM new_names));
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM sponsor_totals_refresh(ARRAY(SELECT project_id FROM old_names), ARRAY(SELECT user_id FROM old_names));
    ELSE
        PERFORM sponsor_totals_refresh(
            ARRAY(SELECT project_id FROM new_names UNION ALL SELECT project_id FROM old_names),
            ARRAY(SELECT user_id FROM new_names UNION ALL SELECT user_id FROM old_names));
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER display_names_running_totals_insert AFTER INSERT ON display_names
    REFERENCING NEW TABLE AS new_names FOR EACH STATEMENT EXECUTE FUNCTION display_names_running_totals();
CREATE TRIGGER display_names_running_totals_update AFTER UPDATE ON display_names
    REFERENCING OLD TABLE AS old_names NEW TABLE AS new_names FOR EACH STATEMENT EXECUTE FUNCTION display_names_running_totals();
CREATE TRIGGER display_names_running_totals_delete AFTER DELETE ON display_names
    REFERENCING OLD TABLE AS old_names FOR EACH STATEMENT EXECUTE FUNCTION display_names_running_totals();

-- A return's type decides the logo right of everyone who bought it.
CREATE FUNCTION returns_running_totals() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    PERFORM sponsor_totals_refresh(ARRAY(SELECT s.project_id FROM sales s WHERE s.return_id = NEW.id AND s.status = 'succeeded'),
                                   ARRAY(SELECT s.user_id FROM sales s WHERE s.return_id = NEW.id AND s.status = 'succeeded'));
    RETURN NULL;
END;
$$;

CREATE TRIGGER returns_running_totals AFTER UPDATE OF return_type ON returns
    FOR EACH ROW WHEN (OLD.return_type IS DISTINCT FROM NEW.return_type) EXECUTE FUNCTION returns_running_totals();

-- Recomputes every running total from sales by plain aggregation: the backfill below, bulk loads that skip
-- triggers (app-server/bench/load_sales.sql), and repair. Writers wait while it runs; readers do not.
CREATE FUNCTION rebuild_running_totals() RETURNS VOID
    LANGUAGE plpgsql VOLATILE
    AS $$
BEGIN
    LOCK TABLE project_totals, return_totals, sponsor_totals IN EXCLUSIVE MODE;
    DELETE FROM project_totals;
    DELETE FROM return_totals;
    DELETE FROM sponsor_totals;
    INSERT INTO project_totals (project_id, paid_amount, supports)
    SELECT project_id, sum(amount)::bigint, count(*)
      FROM sales WHERE sale_counts_toward_totals(status, flag) GROUP BY project_id;
    INSERT INTO return_totals (return_id, paid_amount, supports)
    SELECT return_id, sum(amount)::bigint, count(*)
      FROM sales WHERE sale_counts_toward_totals(status, flag) GROUP BY return_id;
    INSERT INTO sponsor_totals (project_id, user_id, amount, supports)
    SELECT project_id, user_id, sum(amount)::bigint, count(*)
      FROM sales WHERE sale_counts_toward_totals(status, flag) GROUP BY project_id, user_id;
    PERFORM sponsor_totals_describe(array_agg(project_id), array_agg(user_id)) FROM sponsor_totals;
END;
$$;

SELECT rebuild_running_totals();
