-- The statement BG's postgres store issues for View Profile of another member (one query, counts as subqueries).
\set id random(0, 9999)
SELECT m.username, m.pw, m.firstname, m.lastname, m.gender, m.dob, m.jdate, m.ldate, m.address, m.email, m.tel, m.pic, (SELECT count(*) FROM friendship WHERE inviterid = m.userid AND status = 2) + (SELECT count(*) FROM friendship WHERE inviteeid = m.userid AND status = 2), (SELECT count(*) FROM resources WHERE walluserid = m.userid) FROM members m WHERE m.userid = :id;
