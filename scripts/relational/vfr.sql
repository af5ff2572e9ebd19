-- The statement BG's relational stores (mariadb, sqlite: RelationalSchema) prepare for View Friend Requests (the invitations a member has pending).
SELECT m.userid, m.username, m.pw, m.firstname, m.lastname, m.gender, m.dob, m.jdate, m.ldate, m.address, m.email, m.tel, m.tpic FROM friendship f JOIN members m ON m.userid = f.inviterid WHERE f.inviteeid = :id AND f.status = 1
