-- The statement BG's postgres store issues for View Friend Requests (the invitations a member has pending).
\set id random(0, 9999)
SELECT m.userid, m.username, m.pw, m.firstname, m.lastname, m.gender, m.dob, m.jdate, m.ldate, m.address, m.email, m.tel, m.tpic FROM friendship f JOIN members m ON m.userid = f.inviterid WHERE f.inviteeid = :id AND f.status = 1;
