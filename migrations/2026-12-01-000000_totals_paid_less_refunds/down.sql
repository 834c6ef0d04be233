-- Back to the previous basis: a sale counts with `amount` while paid and not refunded (flag <> 11).

CREATE FUNCTION sale_counts_toward_totals(status TEXT, flag SMALLINT) RETURNS BOOLEAN
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT $1 = 'succeeded' AND $2 <> 11 $$;


CREATE OR REPLACE FUNCTION sponsor_description(p_project_id BIGINT, p_user_id BIGINT)
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


CREATE OR REPLACE FUNCTION running_totals_apply(added running_totals_sale[], removed running_totals_sale[]) RETURNS VOID
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


CREATE OR REPLACE FUNCTION sales_running_totals() RETURNS trigger
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


CREATE OR REPLACE FUNCTION display_names_running_totals() RETURNS trigger
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


CREATE OR REPLACE FUNCTION returns_running_totals() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    PERFORM sponsor_totals_refresh(ARRAY(SELECT s.project_id FROM sales s WHERE s.return_id = NEW.id AND s.status = 'succeeded'),
                                   ARRAY(SELECT s.user_id FROM sales s WHERE s.return_id = NEW.id AND s.status = 'succeeded'));
    RETURN NULL;
END;
$$;


CREATE OR REPLACE FUNCTION rebuild_running_totals() RETURNS VOID
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


DROP FUNCTION sale_counted_amount(TEXT, BIGINT, BIGINT);

SELECT rebuild_running_totals();
